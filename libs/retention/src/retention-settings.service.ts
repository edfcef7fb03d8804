import { Inject, Injectable } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { TenantSettingsStore, TenantTransaction } from '@cairn/tenancy';
import {
  type EffectiveRetention,
  type RetentionChanges,
  type RetentionView,
  type TenantRetentionChoices,
} from './contract/retention.types';
import { choicesOf, effectiveOf, viewOf, withChanges } from './retention-choices';

/** Retention's key of the tenant's settings. */
const RETENTION_KEY = 'retention';

/**
 * The current tenant's retention: the installation's days (AUDIT_RETENTION_DAYS,
 * KB_RETENTION_*_DAYS) are the defaults, and a tenant admin may choose its own per value
 * (through the tenant settings API). The knowledge base reads the effective days when it indexes
 * and purges, the maintenance purge when it prunes the audit log; both in the tenant's context.
 */
@Injectable()
export class RetentionSettings {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly settings: TenantSettingsStore,
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
  ) {}

  /** The installation's days, which apply where a tenant chose none. */
  defaults(): EffectiveRetention {
    return { auditLogDays: this.config.audit.retentionDays, knowledgeBaseDays: this.config.knowledge.retentionDays };
  }

  async view(): Promise<RetentionView> {
    return viewOf(await this.choices(), this.defaults());
  }

  async effective(): Promise<EffectiveRetention> {
    return effectiveOf(await this.view());
  }

  /** Applies a change (validated by the caller's schema) and answers the new view. */
  update(changes: RetentionChanges): Promise<RetentionView> {
    return this.tx.run(async () => {
      const next = withChanges(await this.choices(), changes);
      await this.settings.write(RETENTION_KEY, next);
      return viewOf(next, this.defaults());
    });
  }

  private async choices(): Promise<TenantRetentionChoices> {
    return choicesOf(await this.settings.read(RETENTION_KEY));
  }
}
