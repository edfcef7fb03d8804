import { Injectable } from '@nestjs/common';
import { MemorySettings } from '@cairn/memory';
import { RetentionSettings } from '@cairn/retention';
import { SecretRedaction } from '@cairn/secrets';
import { TenantSettingsStore, TenantTransaction } from '@cairn/tenancy';
import { z } from 'zod';
import { EXTRACTION_MODES, type TenantSettings, type TenantSettingsChanges } from './contract/tenant-settings.types';

const EXTRACTION_KEY = 'extraction';
const extractionValue = z.object({ mode: z.enum(EXTRACTION_MODES) });
const FETCH_KEY = 'fetch';
const fetchValue = z.object({ allowHosts: z.array(z.string()), denyHosts: z.array(z.string()) });
const DEFAULTS: Omit<TenantSettings, 'secrets' | 'agentDefaultScope' | 'retention'> = {
  extractionMode: 'proposals',
  fetchAllowHosts: [],
  fetchDenyHosts: [],
};

/**
 * Per-tenant settings in the tenant's own `tenant_settings` table (key → jsonb; `secrets` is
 * @cairn/secrets' own, read and written through SecretRedaction, `agentDefaultScope`
 * @cairn/memory's, through MemorySettings, and `retention` @cairn/retention's, through
 * RetentionSettings). A value
 * that does not parse reads as the default rather than failing every extraction job.
 */
@Injectable()
export class TenantSettingsService {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly settings: TenantSettingsStore,
    private readonly secrets: SecretRedaction,
    private readonly memory: MemorySettings,
    private readonly retention: RetentionSettings,
  ) {}

  get(): Promise<TenantSettings> {
    return this.tx.run(async () => {
      const parsed = extractionValue.safeParse(await this.settings.read(EXTRACTION_KEY));
      const fetch = fetchValue.safeParse(await this.settings.read(FETCH_KEY));
      return {
        extractionMode: parsed.success ? parsed.data.mode : DEFAULTS.extractionMode,
        secrets: await this.secrets.mode(),
        fetchAllowHosts: fetch.success ? fetch.data.allowHosts : DEFAULTS.fetchAllowHosts,
        fetchDenyHosts: fetch.success ? fetch.data.denyHosts : DEFAULTS.fetchDenyHosts,
        agentDefaultScope: await this.memory.agentDefaultScope(),
        retention: await this.retention.view(),
      };
    });
  }

  /** Use TenantSettingsAdmin.update (the api's, audited); this is the write without the audit. */
  update(changes: TenantSettingsChanges): Promise<TenantSettings> {
    return this.tx.run(async () => {
      if (changes.extractionMode !== undefined) {
        await this.settings.write(EXTRACTION_KEY, { mode: changes.extractionMode });
      }
      if (changes.secrets !== undefined) await this.secrets.setMode(changes.secrets);
      if (changes.agentDefaultScope !== undefined) await this.memory.setAgentDefaultScope(changes.agentDefaultScope);
      if (changes.retention !== undefined) await this.retention.update(changes.retention);
      if (changes.fetchAllowHosts !== undefined || changes.fetchDenyHosts !== undefined) {
        // Read inside the same transaction: one list changed keeps the other as it was.
        const current = await this.get();
        await this.settings.write(FETCH_KEY, {
          allowHosts: changes.fetchAllowHosts ?? current.fetchAllowHosts,
          denyHosts: changes.fetchDenyHosts ?? current.fetchDenyHosts,
        });
      }
      return this.get();
    });
  }
}
