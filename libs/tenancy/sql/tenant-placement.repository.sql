-- The statements of libs/tenancy/src/tenant-placement.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- TenantPlacementRepository.find
-- parameters: $1 uuid
SELECT cluster, moving_to FROM cairn.tenants WHERE id = $1;

-- TenantPlacementRepository.liveCounts
SELECT cluster, count(*)::int AS tenants FROM cairn.tenants WHERE deleted_at IS NULL GROUP BY cluster;

-- TenantPlacementRepository.startMove
-- parameters: $1 uuid, $2 text
UPDATE cairn.tenants SET moving_to = $2 WHERE id = $1 AND deleted_at IS NULL AND moving_to IS NULL RETURNING id;

-- TenantPlacementRepository.endMove
-- parameters: $1 uuid, $2 text
UPDATE cairn.tenants SET cluster = $2, moving_to = NULL WHERE id = $1;
