/**
 * The statements of tenant schema migration (TenantMigrationsRepository). Tenant tables are
 * unqualified in migrations: the tenant's schema is first on the search path.
 */
export const TENANT_MIGRATIONS_SQL = {
  /** Every live tenant, oldest first, with the version its schema is at. */
  liveTenants: `SELECT id, slug, schema_name, schema_version, cluster FROM cairn.tenants
       WHERE deleted_at IS NULL ORDER BY created_at, id`,
  /**
   * The tenant migration lock: taken first in each version's transaction, it serialises two
   * migration runs (or a run and a tenant deletion) on this tenant, and the version it reads
   * says whether the step is still to do.
   */
  lockTenant: `SELECT schema_version FROM cairn.tenants WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`,
  /** Transaction-local, so the pooled connection never keeps the tenant's path. */
  setSearchPath: `SELECT set_config('search_path', $1, true)`,
  recordMigration: `INSERT INTO cairn.tenant_migrations (tenant_id, version, name, duration_ms) VALUES ($1, $2, $3, $4)`,
  /**
   * On a member cluster, the version the schema itself is at, stamped in the migration's own
   * transaction there: home's record commits after it, so after a crash between the two the
   * stamp is the truth and the rerun only records it.
   */
  readStamp: `SELECT coalesce(substring(obj_description(to_regnamespace($1)::oid, 'pg_namespace') FROM 'cairn:schema_version=([0-9]+)')::int, 0) AS version`,
  /**
   * A new schema created from the baseline (tenant-schema-baseline.ts): each migration it stands
   * for recorded as applied through it, in one statement, with no time of its own.
   */
  recordBaseline: `INSERT INTO cairn.tenant_migrations (tenant_id, version, name, duration_ms, via_baseline)
       SELECT $1, m.version, m.name, 0, true FROM unnest($2::int[], $3::text[]) AS m (version, name)`,
  setSchemaVersion: `UPDATE cairn.tenants SET schema_version = $2 WHERE id = $1`,
} as const;
