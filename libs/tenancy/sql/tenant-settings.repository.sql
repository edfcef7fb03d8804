-- The statements of libs/tenancy/src/tenant-settings.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- TenantSettingsRepository.find
-- parameters: $1 text
SELECT value FROM tenant_settings WHERE key = $1;

-- TenantSettingsRepository.upsert
-- parameters: $1 text, $2 jsonb
INSERT INTO tenant_settings (key, value) VALUES ($1, $2::jsonb)
ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, updated_at = now();
