import { Injectable } from '@nestjs/common';
import { TenantTransaction } from '@cairn/tenancy';
import { z } from 'zod';
import { EXTRACTION_MODES, type TenantSettings } from './contract/tenant-settings.types';
import { TenantSettingsRepository } from './tenant-settings.repository';

const EXTRACTION_KEY = 'extraction';
const extractionValue = z.object({ mode: z.enum(EXTRACTION_MODES) });
const DEFAULTS: TenantSettings = { extractionMode: 'proposals' };

/**
 * Per-tenant settings in the tenant's own `tenant_settings` table (key → jsonb). A value
 * that does not parse reads as the default rather than failing every extraction job.
 */
@Injectable()
export class TenantSettingsService {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly settings: TenantSettingsRepository,
  ) {}

  get(): Promise<TenantSettings> {
    return this.tx.run(async () => {
      const parsed = extractionValue.safeParse(await this.settings.find(EXTRACTION_KEY));
      return { extractionMode: parsed.success ? parsed.data.mode : DEFAULTS.extractionMode };
    });
  }

  update(changes: Partial<TenantSettings>): Promise<TenantSettings> {
    return this.tx.run(async () => {
      if (changes.extractionMode !== undefined) {
        await this.settings.upsert(EXTRACTION_KEY, { mode: changes.extractionMode });
      }
      return this.get();
    });
  }
}
