-- The statements of libs/tenancy/src/tenant-move.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- TenantMoveRepository.freeze, no snapshot: runs on a cluster the move names; the two-cluster
--   placement test runs it

-- TenantMoveRepository.schemaExists, no snapshot: runs on a cluster the move names; the two-cluster
--   placement test runs it

-- TenantMoveRepository.digests, no snapshot: runs on a cluster the move names; the two-cluster
--   placement test runs it

-- TenantMoveRepository.stamp, no snapshot: runs on a cluster the move names; the two-cluster
--   placement test runs it

-- TenantMoveRepository.dropSchema, no snapshot: runs on a cluster the move names; the two-cluster
--   placement test runs it

-- TenantMoveRepository.restoreRetired, no snapshot: runs on a cluster the move names; the
--   two-cluster placement test runs it

-- TenantMoveRepository.runnerOn, no snapshot: hands out a runner; its statements are the registered
--   steps, shown under their owners
