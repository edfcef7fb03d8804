import { Injectable } from '@nestjs/common';
import { type AuditFilter } from './audit-filter';
import { type PlatformAuditRow, PlatformAuditRepository } from './platform-audit.repository';
import { type ChainVerification, TenantAuditLog, type TenantAuditRow } from './tenant-audit-log.repository';

/** Reading the audit logs (platform and tenant), verifying a tenant's chain, and retention. */
@Injectable()
export class AuditLogService {
  constructor(
    private readonly platform: PlatformAuditRepository,
    private readonly tenants: TenantAuditLog,
  ) {}

  /** Platform audit, newest first; `beforeId` pages backwards, the rest of the filter narrows it. */
  platformEntries(filter: AuditFilter & { tenantId?: string }): Promise<PlatformAuditRow[]> {
    return this.platform.list(filter);
  }

  /** A tenant's chained audit log, newest first; `beforeId` pages backwards, the rest of the filter narrows it. */
  tenantEntries(schema: string, filter: AuditFilter): Promise<TenantAuditRow[]> {
    return this.tenants.list(schema, filter);
  }

  verify(schema: string): Promise<ChainVerification> {
    return this.tenants.verify(schema);
  }

  /** Deletes a tenant's entries older than `before` (a prefix of the chain); returns how many. */
  prune(schema: string, before: Date): Promise<number> {
    return this.tenants.prune(schema, before);
  }
}
