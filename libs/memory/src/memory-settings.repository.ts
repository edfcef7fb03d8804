import { Injectable } from '@nestjs/common';
import { TenantDb } from '@cairn/tenancy';

/** Memory's key of the tenant's `tenant_settings` table (key → jsonb); runs inside a tenant transaction. */
@Injectable()
export class MemorySettingsRepository {
  constructor(private readonly db: TenantDb) {}

  async find(): Promise<unknown> {
    const rows = await this.db.query<{ value: unknown }>(`SELECT value FROM tenant_settings WHERE key = 'memory'`);
    return rows[0]?.value;
  }

  async upsert(value: unknown): Promise<void> {
    await this.db.query(
      `INSERT INTO tenant_settings (key, value) VALUES ('memory', $1::jsonb)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [JSON.stringify(value)],
    );
  }
}
