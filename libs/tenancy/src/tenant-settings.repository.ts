import { Injectable } from '@nestjs/common';
import { SqlSnapshot } from '@cairn/db';
import { TenantDb } from './tenant-db.service';

/** The tenant's own `tenant_settings` table (key → jsonb); every call runs inside a tenant transaction. */
@Injectable()
export class TenantSettingsRepository {
  constructor(private readonly db: TenantDb) {}

  /** The stored value of `key`, undefined when it was never set. */
  @SqlSnapshot({ params: ['extraction'] })
  async find(key: string): Promise<unknown> {
    const rows = await this.db.query<{ value: unknown }>('SELECT value FROM tenant_settings WHERE key = $1', [key]);
    return rows[0]?.value;
  }

  @SqlSnapshot({ params: ['extraction', { mode: 'review' }] })
  async upsert(key: string, value: unknown): Promise<void> {
    await this.db.query(
      `INSERT INTO tenant_settings (key, value) VALUES ($1, $2::jsonb)
       ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [key, JSON.stringify(value)],
    );
  }
}
