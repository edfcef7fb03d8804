import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@cairn/audit';
import { TenantContext } from '@cairn/tenancy';
import { type TenantSettings } from './contract/tenant-settings.types';
import { TenantSettingsService } from './tenant-settings.service';

/**
 * Changing the tenant's settings, as the api does it (the worker only reads them, and has no
 * audit trail to inject). Only admins reach it (`tenant.settings.manage`), so `allow` is an
 * admin's choice. The route is audited; a change of the `secrets` mode also gets an entry of its
 * own saying from what to what, since it decides whether secrets are stored in the clear.
 */
@Injectable()
export class TenantSettingsAdmin {
  constructor(
    private readonly settings: TenantSettingsService,
    private readonly tenant: TenantContext,
    private readonly audit: AuditTrail,
  ) {}

  /** `actor` as actorOf() spells it. */
  async update(changes: Partial<TenantSettings>, actor: string): Promise<TenantSettings> {
    const before = changes.secrets === undefined ? undefined : (await this.settings.get()).secrets;
    const after = await this.settings.update(changes);
    if (before === undefined || before === after.secrets) return after;
    const tenant = this.tenant.require('TenantSettingsAdmin.update');
    await this.audit.record(
      {
        actor,
        tenantId: tenant.id,
        action: 'tenant.settings.secrets',
        target: 'secrets',
        outcome: 'success',
        status: null,
        requestId: null,
        details: { from: before, to: after.secrets },
      },
      tenant.schema,
    );
    return after;
  }
}
