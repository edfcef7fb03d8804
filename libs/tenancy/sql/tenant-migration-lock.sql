-- Tenant migration lock: the first statement of every tenant migration step, in that step's own transaction
-- (TenantMigrationsRepository.applyLocked, libs/tenancy/src/tenant-migrations.repository.ts), under the
-- migration advisory lock (libs/db/sql/migration-lock.sql). $1 = the tenant id.
-- No row: the tenant was deleted meanwhile; a version at or past the step: another run applied it.
SELECT schema_version FROM cairn.tenants WHERE id = $1 AND deleted_at IS NULL FOR UPDATE;

-- then, in the same transaction, the tenant's schema first on the search path ($1 = '"t_…", public')
SELECT set_config('search_path', $1, true);

-- after the migration's own statements: its record, and the tenant's new version
INSERT INTO cairn.tenant_migrations (tenant_id, version, name, duration_ms) VALUES ($1, $2, $3, $4);
UPDATE cairn.tenants SET schema_version = $2 WHERE id = $1;
