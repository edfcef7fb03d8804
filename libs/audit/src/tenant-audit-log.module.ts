import { Module } from '@nestjs/common';
import { AuditLogService } from './audit-log.service';
import { AuditOutboxMove } from './audit-outbox-move.service';
import { AuditOutboxRepository } from './audit-outbox.repository';
import { PlatformAuditRepository } from './platform-audit.repository';
import { TenantAuditLog } from './tenant-audit-log.repository';

/**
 * The audit logs alone (no interceptor): for the worker's retention purge, and with the outbox's
 * rows so a tenant move (`npm run tenants:move`) carries them.
 */
@Module({
  providers: [PlatformAuditRepository, TenantAuditLog, AuditLogService, AuditOutboxRepository, AuditOutboxMove],
  exports: [PlatformAuditRepository, TenantAuditLog, AuditLogService, AuditOutboxRepository],
})
export class TenantAuditLogModule {}
