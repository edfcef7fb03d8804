import { Module } from '@nestjs/common';
import { AuditLogService } from './audit-log.service';
import { PlatformAuditRepository } from './platform-audit.repository';
import { TenantAuditLog } from './tenant-audit-log.repository';

/** The audit logs alone (no interceptor): for the worker's retention purge. */
@Module({
  providers: [PlatformAuditRepository, TenantAuditLog, AuditLogService],
  exports: [PlatformAuditRepository, TenantAuditLog, AuditLogService],
})
export class TenantAuditLogModule {}
