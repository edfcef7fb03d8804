-- The statements of libs/tenancy/src/tenant-migrations.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- TenantMigrationsRepository.liveTenants
SELECT id, slug, schema_name, schema_version, cluster FROM cairn.tenants
WHERE deleted_at IS NULL ORDER BY created_at, id;

-- TenantMigrationsRepository.applyLocked (a migration past the tenant's version, whose own statements are left out)
BEGIN;

-- parameters: $1 uuid
SELECT schema_version FROM cairn.tenants WHERE id = $1 AND deleted_at IS NULL FOR UPDATE;

-- parameters: $1 text
SELECT set_config('search_path', $1, true);

-- parameters: $1 uuid, $2 integer, $3 text, $4 integer
INSERT INTO cairn.tenant_migrations (tenant_id, version, name, duration_ms) VALUES ($1, $2, $3, $4);

-- parameters: $1 uuid, $2 integer
UPDATE cairn.tenants SET schema_version = $2 WHERE id = $1;

COMMIT;

-- TenantMigrationsRepository.applyOnMember, no snapshot: runs on a member cluster (none in the
--   snapshot database) and on the home transaction of applyLocked

-- TenantMigrationsRepository.stamp, no snapshot: runs on the EntityManager of a member-cluster
--   transaction (applyOnMember, provisioning)

-- TenantMigrationsRepository.apply, no snapshot: runs on the EntityManager of its caller's
--   transaction: its statements show under applyLocked (and the migrations' own in
--   libs/tenancy/src/migrations)

-- TenantMigrationsRepository.runStatements, no snapshot: runs on the EntityManager of its caller's
--   transaction; the statements are the migrations' own, in libs/tenancy/src/migrations

-- TenantMigrationsRepository.runBaseline, no snapshot: runs in the provisioning transaction; its
--   statements are the baseline, in migrations/baseline.ts

-- TenantMigrationsRepository.recordBaseline, no snapshot: runs on the EntityManager of the
--   provisioning transaction (home's)

-- TenantMigrationsRepository.record, no snapshot: runs on the EntityManager of its caller's
--   transaction: its statements show under applyLocked
