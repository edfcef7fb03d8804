-- The statements of libs/encryption/src/data-keys.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- DataKeysRepository.latest
-- parameters: $1 uuid
SELECT tenant_id, version, wrapped_key, master_key_id
FROM cairn.tenant_data_keys
WHERE tenant_id = $1
ORDER BY version DESC
LIMIT 1;

-- DataKeysRepository.byVersion
-- parameters: $1 uuid, $2 integer
SELECT tenant_id, version, wrapped_key, master_key_id
FROM cairn.tenant_data_keys
WHERE tenant_id = $1 AND version = $2;

-- DataKeysRepository.insertIfAbsent
-- parameters: $1 uuid, $2 integer, $3 bytea, $4 text
INSERT INTO cairn.tenant_data_keys (tenant_id, version, wrapped_key, master_key_id)
VALUES ($1, $2::int, $3::bytea, $4::text)
ON CONFLICT (tenant_id, version) DO NOTHING;

-- DataKeysRepository.tenantsPage
-- parameters: $1 text, $2 uuid, $3 bigint
SELECT k.tenant_id, count(*)::int AS keys, count(*) FILTER (WHERE k.master_key_id = $1)::int AS current
FROM cairn.tenant_data_keys k
WHERE k.tenant_id > $2
GROUP BY k.tenant_id
ORDER BY k.tenant_id
LIMIT $3;

-- DataKeysRepository.rewrapTenant (a key wrapped by the previous master key)
BEGIN;

-- parameters: $1 uuid, $2 text
SELECT tenant_id, version, wrapped_key, master_key_id
FROM cairn.tenant_data_keys
WHERE tenant_id = $1 AND master_key_id <> $2
ORDER BY version
FOR UPDATE;

-- parameters: $1 uuid, $2 integer, $3 text, $4 bytea, $5 text
UPDATE cairn.tenant_data_keys
SET wrapped_key = $4, master_key_id = $5, rewrapped_at = now()
WHERE tenant_id = $1 AND version = $2 AND master_key_id = $3;

COMMIT;

-- DataKeysRepository.rewrapPlatform (a platform key wrapped by the previous master key)
BEGIN;

-- parameters: $1 text
SELECT version, wrapped_key, master_key_id
FROM cairn.platform_data_keys
WHERE master_key_id <> $1
ORDER BY version
FOR UPDATE;

-- parameters: $1 integer, $2 text, $3 bytea, $4 text
UPDATE cairn.platform_data_keys
SET wrapped_key = $3, master_key_id = $4, rewrapped_at = now()
WHERE version = $1 AND master_key_id = $2;

COMMIT;

-- DataKeysRepository.platformSummary
-- parameters: $1 text
SELECT count(*)::int AS keys, count(*) FILTER (WHERE master_key_id = $1)::int AS current
FROM cairn.platform_data_keys;

-- DataKeysRepository.masterKeysInUse
SELECT DISTINCT ON (master_key_id) master_key_id, tenant_id, version, wrapped_key,
       count(*) OVER (PARTITION BY master_key_id)::int AS keys
FROM (
  SELECT tenant_id, version, wrapped_key, master_key_id FROM cairn.tenant_data_keys
  UNION ALL
  SELECT '00000000-0000-0000-0000-000000000000'::uuid, version, wrapped_key, master_key_id
  FROM cairn.platform_data_keys
) k
ORDER BY master_key_id, tenant_id, version;

-- DataKeysRepository.countNotWrappedBy
-- parameters: $1 text
SELECT ((SELECT count(*) FROM cairn.tenant_data_keys WHERE master_key_id <> $1)
+ (SELECT count(*) FROM cairn.platform_data_keys WHERE master_key_id <> $1))::int AS remaining;

-- DataKeysRepository.withRotationLock
-- parameters: $1 integer, $2 integer
SELECT pg_try_advisory_lock($1, $2) AS locked;

-- parameters: $1 integer, $2 integer
SELECT pg_advisory_unlock($1, $2);

-- DataKeysRepository.latestOfPlatform
SELECT version, wrapped_key, master_key_id
FROM cairn.platform_data_keys
ORDER BY version DESC
LIMIT 1;

-- DataKeysRepository.platformByVersion
-- parameters: $1 integer
SELECT version, wrapped_key, master_key_id FROM cairn.platform_data_keys WHERE version = $1;

-- DataKeysRepository.insertPlatformIfAbsent
-- parameters: $1 integer, $2 bytea, $3 text
INSERT INTO cairn.platform_data_keys (version, wrapped_key, master_key_id)
VALUES ($1::int, $2::bytea, $3::text)
ON CONFLICT (version) DO NOTHING;
