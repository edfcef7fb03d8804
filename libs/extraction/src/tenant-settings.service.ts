import { Injectable } from '@nestjs/common';
import { SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import { z } from 'zod';
import { EXTRACTION_MODES, type TenantSettings } from './contract/tenant-settings.types';
import { TenantSettingsRepository } from './tenant-settings.repository';

const EXTRACTION_KEY = 'extraction';
const extractionValue = z.object({ mode: z.enum(EXTRACTION_MODES) });
const DEFAULT_EXTRACTION_MODE = 'proposals';

/**
 * Per-tenant settings in the tenant's own `tenant_settings` table (key → jsonb; `secrets` is
 * @cairn/secrets' own, read and written through SecretRedaction). A value
 * that does not parse reads as the default rather than failing every extraction job.
 */
@Injectable()
export class TenantSettingsService {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly settings: TenantSettingsRepository,
    private readonly secrets: SecretRedaction,
  ) {}

  get(): Promise<TenantSettings> {
    return this.tx.run(async () => {
      const parsed = extractionValue.safeParse(await this.settings.find(EXTRACTION_KEY));
      return {
        extractionMode: parsed.success ? parsed.data.mode : DEFAULT_EXTRACTION_MODE,
        secrets: await this.secrets.mode(),
      };
    });
  }

  /** Use TenantSettingsAdmin.update (the api's, audited); this is the write without the audit. */
  update(changes: Partial<TenantSettings>): Promise<TenantSettings> {
    return this.tx.run(async () => {
      if (changes.extractionMode !== undefined) {
        await this.settings.upsert(EXTRACTION_KEY, { mode: changes.extractionMode });
      }
      if (changes.secrets !== undefined) await this.secrets.setMode(changes.secrets);
      return this.get();
    });
  }
}
