import { Injectable } from '@nestjs/common';
import { AuditTrail } from '@cairn/audit';
import { JobQueue } from '@cairn/jobs';
import { type RetentionView } from '@cairn/retention';
import { type TenantRef, TenantContext } from '@cairn/tenancy';
import { type TenantSettings, type TenantSettingsChanges } from './contract/tenant-settings.types';
import { TenantSettingsService } from './tenant-settings.service';

/**
 * Changing the tenant's settings, as the api does it (the worker only reads them, and has no
 * audit trail to inject). Only admins reach it (`tenant.settings.manage`), so `allow` is an
 * admin's choice. The route is audited; a change of the `secrets` mode also gets an entry of its
 * own saying from what to what, since it decides whether secrets are stored in the clear, and so
 * does a change of retention, since it decides what the purge deletes. A retention change also
 * queues the tenant's retention purge, so it applies within moments rather than at the next
 * scheduled run.
 */
@Injectable()
export class TenantSettingsAdmin {
  constructor(
    private readonly settings: TenantSettingsService,
    private readonly tenant: TenantContext,
    private readonly audit: AuditTrail,
    private readonly jobs: JobQueue,
  ) {}

  /** `actor` as actorOf() spells it. */
  async update(changes: TenantSettingsChanges, actor: string): Promise<TenantSettings> {
    const before =
      changes.secrets === undefined && changes.retention === undefined ? undefined : await this.settings.get();
    const after = await this.settings.update(changes);
    if (before === undefined) return after;
    const tenant = this.tenant.require('TenantSettingsAdmin.update');
    if (before.secrets !== after.secrets) {
      await this.record(tenant, actor, 'tenant.settings.secrets', 'secrets', {
        from: before.secrets,
        to: after.secrets,
      });
    }
    if (JSON.stringify(before.retention) !== JSON.stringify(after.retention)) {
      await this.record(tenant, actor, 'tenant.settings.retention', 'retention', {
        from: chosen(before.retention),
        to: chosen(after.retention),
      });
      await this.jobs.enqueue(
        'maintenance',
        'retention-purge',
        { tenantId: tenant.id },
        { jobId: `retention-purge-${tenant.id}-settings-${Date.now()}` },
      );
    }
    return after;
  }

  private record(tenant: TenantRef, actor: string, action: string, target: string, details: Record<string, unknown>) {
    return this.audit.record(
      { actor, tenantId: tenant.id, action, target, outcome: 'success', status: null, requestId: null, details },
      tenant.schema,
    );
  }
}

/** The days applied, each with the tenant's own choice (null: the installation's default). */
function chosen(view: RetentionView) {
  const day = (value: RetentionView['auditLogDays']) => ({ days: value.effective, tenant: value.tenant });
  return {
    auditLogDays: day(view.auditLogDays),
    knowledgeBaseDays: {
      external: day(view.knowledgeBaseDays.external),
      internal: day(view.knowledgeBaseDays.internal),
      summary: day(view.knowledgeBaseDays.summary),
    },
  };
}
