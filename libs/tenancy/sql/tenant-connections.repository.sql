-- The statements of libs/tenancy/src/tenant-connections.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- TenantConnections.dataSource, no snapshot: hands out a data source; the statements run on it show
--   under the repositories that send them

-- TenantConnections.dataSourceOfSchema, no snapshot: hands out a data source; the statements run on
--   it show under the repositories that send them

-- TenantConnections.maintenanceTarget, no snapshot: hands out a data source; the statements run on
--   it show under the repositories that send them

-- TenantConnections.transaction (the tenant's search path, as TenantTransaction opens every transaction)
BEGIN;

-- parameters: $1 text, $2 text
SELECT set_config($1, $2, true);

COMMIT;

-- TenantConnections.transaction (with a semantic recall's settings)
BEGIN;

-- parameters: $1 text, $2 text, $3 text, $4 text, $5 text, $6 text
SELECT set_config($1, $2, true), set_config($3, $4, true), set_config($5, $6, true);

COMMIT;

-- TenantConnections.transactionOnSchema
BEGIN;

COMMIT;

-- TenantConnections.schemaExists
-- parameters: $1 name
SELECT 1 FROM pg_namespace WHERE nspname = $1;
