import { Injectable, Logger } from '@nestjs/common';
import { type PlatformAuditEntry, PlatformAuditRepository } from './platform-audit.repository';
import { isTenantGone, TenantAuditLog } from './tenant-audit-log.repository';

/**
 * Administrative actions and denials: one row in the platform audit (the operator's view
 * across tenants) and, when a tenant is concerned, one in that tenant's chained audit log
 * (the tenant's own record), both written before the response leaves.
 */
@Injectable()
export class AuditTrail {
  private readonly logger = new Logger('AuditTrail');

  constructor(
    private readonly platform: PlatformAuditRepository,
    private readonly tenants: TenantAuditLog,
  ) {}

  async record(entry: PlatformAuditEntry, tenantSchema?: string): Promise<void> {
    await this.platform.append(entry);
    if (!tenantSchema) return;
    const { tenantId: _tenantId, ...tenantEntry } = entry;
    try {
      await this.tenants.appendMany(tenantSchema, [tenantEntry]);
    } catch (error) {
      if (isTenantGone(error)) return; // a tenant.delete: the platform row records it
      throw error;
    }
  }
}
