import { Injectable } from '@nestjs/common';
import { TenantDb, TenantTransaction } from '@cairn/tenancy';
import { z } from 'zod';

export const EXTRACTION_MODES = ['proposals', 'memories'] as const;
export type ExtractionMode = (typeof EXTRACTION_MODES)[number];

/** The settings a tenant admin may change, as the API shows them. */
export interface TenantSettings {
  /** `proposals`: extracted facts wait for a member to accept them; `memories`: stored at once. */
  readonly extractionMode: ExtractionMode;
}

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
    private readonly db: TenantDb,
  ) {}

  get(): Promise<TenantSettings> {
    return this.tx.run(async () => {
      const rows = await this.db.query<{ value: unknown }>('SELECT value FROM tenant_settings WHERE key = $1', [
        EXTRACTION_KEY,
      ]);
      const parsed = extractionValue.safeParse(rows[0]?.value);
      return { extractionMode: parsed.success ? parsed.data.mode : DEFAULTS.extractionMode };
    });
  }

  update(changes: Partial<TenantSettings>): Promise<TenantSettings> {
    return this.tx.run(async () => {
      if (changes.extractionMode !== undefined) {
        await this.db.query(
          `INSERT INTO tenant_settings (key, value) VALUES ($1, $2::jsonb)
           ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
          [EXTRACTION_KEY, JSON.stringify({ mode: changes.extractionMode })],
        );
      }
      return this.get();
    });
  }
}
