-- The statements of libs/tenancy/src/control-schema.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- ControlSchemaRepository.withMigrationLock
-- parameters: $1 integer, $2 integer
SELECT pg_try_advisory_lock($1, $2) AS locked;

-- parameters: $1 integer, $2 integer
SELECT pg_advisory_unlock($1, $2);

-- ControlSchemaRepository.currentVersion
SELECT to_regclass('cairn.control_migrations') IS NOT NULL AS present;

SELECT coalesce(max(version), 0)::int AS version FROM cairn.control_migrations;

-- ControlSchemaRepository.migrate (nothing to apply)
CREATE SCHEMA IF NOT EXISTS cairn;

CREATE TABLE IF NOT EXISTS cairn.control_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_at timestamptz NOT NULL DEFAULT now()
);

SELECT to_regclass('cairn.control_migrations') IS NOT NULL AS present;

SELECT coalesce(max(version), 0)::int AS version FROM cairn.control_migrations;

-- ControlSchemaRepository.migrateMembers, no snapshot: runs only on member clusters
--   (MemberClusterMigrator), which the snapshot database has none of
