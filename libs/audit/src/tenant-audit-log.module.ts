import { Module } from '@nestjs/common';
import { TenantAuditLog } from './tenant-audit-log.repository';

/** The tenant audit log alone (no interceptor): for the worker's retention purge. */
@Module({ providers: [TenantAuditLog], exports: [TenantAuditLog] })
export class TenantAuditLogModule {}
