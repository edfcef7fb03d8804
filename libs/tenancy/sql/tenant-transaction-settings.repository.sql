-- The statements of libs/tenancy/src/tenant-transaction-settings.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- TenantTransactionSettingsRepository.apply
-- parameters: $1 text, $2 text
SELECT set_config($1, $2, true);
