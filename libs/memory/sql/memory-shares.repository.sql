-- The statements of libs/memory/src/memory-shares.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- MemorySharesRepository.upsertShare (a new agent grantee)
-- parameters: $1 uuid, $2 uuid, $3 uuid, $4 text, $5 text, $6 uuid, $7 text, $8 uuid
INSERT INTO memory_shares (id, memory_id, grantee_user_id, grantee_agent_id, permission,
  granted_by_user_id, granted_by_agent_id, granted_by_token_id)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
ON CONFLICT (memory_id, grantee_agent_id) WHERE grantee_agent_id IS NOT NULL DO UPDATE SET permission = EXCLUDED.permission,
  granted_by_user_id = EXCLUDED.granted_by_user_id, granted_by_agent_id = EXCLUDED.granted_by_agent_id,
  granted_by_token_id = EXCLUDED.granted_by_token_id
RETURNING id, (xmax = 0) AS created;

-- parameters: $1 uuid
INSERT INTO memory_grant_notices (memory_id, grantee_user_id, grantee_agent_id) SELECT memory_id, grantee_user_id, grantee_agent_id FROM memory_shares WHERE id = $1;

-- parameters: $1 uuid
SELECT 'share' AS kind, s.id, s.memory_id, NULL::text AS tag, m.project_id,
  s.grantee_user_id, s.grantee_agent_id, s.permission, s.granted_by_user_id AS by_user_id,
  s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at
FROM memory_shares s JOIN memories m ON m.id = s.memory_id WHERE s.id = $1;

-- MemorySharesRepository.upsertShare (a new user grantee)
-- parameters: $1 uuid, $2 uuid, $3 uuid, $4 text, $5 text, $6 uuid, $7 text, $8 uuid
INSERT INTO memory_shares (id, memory_id, grantee_user_id, grantee_agent_id, permission,
  granted_by_user_id, granted_by_agent_id, granted_by_token_id)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
ON CONFLICT (memory_id, grantee_user_id) WHERE grantee_user_id IS NOT NULL DO UPDATE SET permission = EXCLUDED.permission,
  granted_by_user_id = EXCLUDED.granted_by_user_id, granted_by_agent_id = EXCLUDED.granted_by_agent_id,
  granted_by_token_id = EXCLUDED.granted_by_token_id
RETURNING id, (xmax = 0) AS created;

-- parameters: $1 uuid
INSERT INTO memory_grant_notices (memory_id, grantee_user_id, grantee_agent_id) SELECT memory_id, grantee_user_id, grantee_agent_id FROM memory_shares WHERE id = $1;

-- parameters: $1 uuid
SELECT 'share' AS kind, s.id, s.memory_id, NULL::text AS tag, m.project_id,
  s.grantee_user_id, s.grantee_agent_id, s.permission, s.granted_by_user_id AS by_user_id,
  s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at
FROM memory_shares s JOIN memories m ON m.id = s.memory_id WHERE s.id = $1;

-- MemorySharesRepository.findShare
-- parameters: $1 uuid
SELECT 'share' AS kind, s.id, s.memory_id, NULL::text AS tag, m.project_id,
  s.grantee_user_id, s.grantee_agent_id, s.permission, s.granted_by_user_id AS by_user_id,
  s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at
FROM memory_shares s JOIN memories m ON m.id = s.memory_id WHERE s.id = $1;

-- MemorySharesRepository.deleteShare
-- parameters: $1 uuid
WITH gone AS (DELETE FROM memory_shares WHERE id = $1 RETURNING memory_id, grantee_user_id, grantee_agent_id)
INSERT INTO memory_grant_notices (memory_id, grantee_user_id, grantee_agent_id) SELECT memory_id, grantee_user_id, grantee_agent_id FROM gone;

-- MemorySharesRepository.upsertRule (a new rule)
-- parameters: $1 text
SELECT pg_advisory_xact_lock(hashtext('memory_share_rules'), hashtext($1));

-- parameters: $1 uuid, $2 text, $3 uuid, $4 text, $5 uuid, $6 text, $7 uuid, $8 text
WITH changed AS (UPDATE memory_share_rules SET permission = $8
WHERE project_id IS NOT DISTINCT FROM $1::uuid AND tag = $2 AND grantee_user_id IS NOT DISTINCT FROM $3::uuid
  AND grantee_agent_id IS NOT DISTINCT FROM $4::text AND owner_user_id IS NOT DISTINCT FROM $5::uuid
  AND owner_agent_id IS NOT DISTINCT FROM $6::text AND owner_token_id IS NOT DISTINCT FROM $7::uuid
RETURNING id)
SELECT id FROM changed;

-- parameters: $1 uuid, $2 text, $3 uuid, $4 text, $5 uuid, $6 text, $7 uuid, $8 text, $9 uuid
INSERT INTO memory_share_rules (id, project_id, tag, grantee_user_id, grantee_agent_id, owner_user_id,
  owner_agent_id, owner_token_id, permission)
VALUES ($9, $1, $2, $3, $4, $5, $6, $7, $8);

-- parameters: $1 uuid
INSERT INTO memory_grant_notices (memory_id, grantee_user_id, grantee_agent_id)
SELECT m.id, r.grantee_user_id, r.grantee_agent_id
FROM memory_share_rules r JOIN memories m ON r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE)
WHERE r.id = $1::uuid AND m.scope = 'private' AND m.deleted_at IS NULL;

-- parameters: $1 uuid
SELECT 'rule' AS kind, r.id, NULL::uuid AS memory_id, r.tag, r.project_id,
  r.grantee_user_id, r.grantee_agent_id, r.permission, r.owner_user_id AS by_user_id,
  r.owner_agent_id AS by_agent_id, r.owner_token_id AS by_token_id, r.created_at
FROM memory_share_rules r WHERE r.id = $1;

-- MemorySharesRepository.upsertRule (the rule exists: its permission changes)
-- parameters: $1 text
SELECT pg_advisory_xact_lock(hashtext('memory_share_rules'), hashtext($1));

-- parameters: $1 uuid, $2 text, $3 uuid, $4 text, $5 uuid, $6 text, $7 uuid, $8 text
WITH changed AS (UPDATE memory_share_rules SET permission = $8
WHERE project_id IS NOT DISTINCT FROM $1::uuid AND tag = $2 AND grantee_user_id IS NOT DISTINCT FROM $3::uuid
  AND grantee_agent_id IS NOT DISTINCT FROM $4::text AND owner_user_id IS NOT DISTINCT FROM $5::uuid
  AND owner_agent_id IS NOT DISTINCT FROM $6::text AND owner_token_id IS NOT DISTINCT FROM $7::uuid
RETURNING id)
SELECT id FROM changed;

-- parameters: $1 uuid
SELECT 'rule' AS kind, r.id, NULL::uuid AS memory_id, r.tag, r.project_id,
  r.grantee_user_id, r.grantee_agent_id, r.permission, r.owner_user_id AS by_user_id,
  r.owner_agent_id AS by_agent_id, r.owner_token_id AS by_token_id, r.created_at
FROM memory_share_rules r WHERE r.id = $1;

-- MemorySharesRepository.findRule
-- parameters: $1 uuid
SELECT 'rule' AS kind, r.id, NULL::uuid AS memory_id, r.tag, r.project_id,
  r.grantee_user_id, r.grantee_agent_id, r.permission, r.owner_user_id AS by_user_id,
  r.owner_agent_id AS by_agent_id, r.owner_token_id AS by_token_id, r.created_at
FROM memory_share_rules r WHERE r.id = $1;

-- MemorySharesRepository.deleteRule
-- parameters: $1 uuid
INSERT INTO memory_grant_notices (memory_id, grantee_user_id, grantee_agent_id)
SELECT m.id, r.grantee_user_id, r.grantee_agent_id
FROM memory_share_rules r JOIN memories m ON r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE)
WHERE r.id = $1::uuid AND m.scope = 'private' AND m.deleted_at IS NULL;

-- parameters: $1 uuid
DELETE FROM memory_share_rules WHERE id = $1;

-- MemorySharesRepository.sharedWith (first page)
-- parameters: $1 uuid, $2 text, $3 uuid, $4 text, $5 uuid, $6 uuid, $7 text, $8 uuid, $9 bigint
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded, g.permission AS grant_permission, g.via AS grant_via, g.grant_id,
     g.by_user_id, g.by_agent_id, g.by_token_id, g.granted_at
   FROM memories m
   LEFT JOIN LATERAL (
     SELECT * FROM (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $1::uuid OR s.grantee_agent_id = $2::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $1::uuid OR r.grantee_agent_id = $2::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE)) x
     ORDER BY (x.permission = 'write') DESC, (x.via = 'share') DESC, x.granted_at, x.grant_id LIMIT 1
   ) g ON true
   WHERE m.deleted_at IS NULL AND (m.project_id = $5::uuid OR m.scope = 'team')
     AND NOT ((m.author_token_id = $8::uuid OR m.author_user_id = $6::uuid OR ($6::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $7::text)) IS TRUE) AND EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $3::uuid OR s.grantee_agent_id = $4::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $3::uuid OR r.grantee_agent_id = $4::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))
   ORDER BY m.created_at DESC, m.id DESC LIMIT $9;

-- MemorySharesRepository.sharedWith (after a memory)
-- parameters: $1 uuid, $2 text, $3 uuid, $4 text, $5 uuid, $6 uuid, $7 text, $8 uuid, $9 uuid, $10 bigint
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded, g.permission AS grant_permission, g.via AS grant_via, g.grant_id,
     g.by_user_id, g.by_agent_id, g.by_token_id, g.granted_at
   FROM memories m
   LEFT JOIN LATERAL (
     SELECT * FROM (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $1::uuid OR s.grantee_agent_id = $2::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $1::uuid OR r.grantee_agent_id = $2::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE)) x
     ORDER BY (x.permission = 'write') DESC, (x.via = 'share') DESC, x.granted_at, x.grant_id LIMIT 1
   ) g ON true
   WHERE m.deleted_at IS NULL AND (m.project_id = $5::uuid OR m.scope = 'team')
     AND NOT ((m.author_token_id = $8::uuid OR m.author_user_id = $6::uuid OR ($6::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $7::text)) IS TRUE) AND EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $3::uuid OR s.grantee_agent_id = $4::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $3::uuid OR r.grantee_agent_id = $4::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE)) AND (m.created_at, m.id) < (SELECT c.created_at, c.id FROM memories c WHERE c.id = $9::uuid)
   ORDER BY m.created_at DESC, m.id DESC LIMIT $10;

-- MemorySharesRepository.grants (the caller's, of one memory)
-- parameters: $1 uuid, $2 uuid, $3 text, $4 uuid, $5 uuid, $6 bigint
SELECT g.*, to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_at
FROM (
  SELECT 'share' AS kind, s.id, s.memory_id, NULL::text AS tag, m.project_id,
    s.grantee_user_id, s.grantee_agent_id, s.permission, s.granted_by_user_id AS by_user_id,
    s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at
  FROM memory_shares s JOIN memories m ON m.id = s.memory_id
  WHERE m.deleted_at IS NULL AND (m.project_id = $1::uuid OR m.scope = 'team') AND (((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR ((s.granted_by_token_id = $4::uuid OR s.granted_by_user_id = $2::uuid OR ($2::uuid IS NULL AND s.granted_by_user_id IS NULL AND s.granted_by_agent_id = $3::text)) IS TRUE)) AND s.memory_id = $5::uuid
  UNION ALL
  SELECT 'rule', r.id, NULL::uuid, r.tag, r.project_id, r.grantee_user_id, r.grantee_agent_id,
    r.permission, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
  FROM memory_share_rules r
  WHERE (r.project_id = $1::uuid OR r.project_id IS NULL) AND ((r.owner_token_id = $4::uuid OR r.owner_user_id = $2::uuid OR ($2::uuid IS NULL AND r.owner_user_id IS NULL AND r.owner_agent_id = $3::text)) IS TRUE) AND false
) g

ORDER BY g.created_at DESC, g.id DESC LIMIT $6;

-- MemorySharesRepository.grants (every one (an admin's), after a position)
-- parameters: $1 uuid, $2 timestamp with time zone, $3 uuid, $4 bigint
SELECT g.*, to_char(g.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS position_at
FROM (
  SELECT 'share' AS kind, s.id, s.memory_id, NULL::text AS tag, m.project_id,
    s.grantee_user_id, s.grantee_agent_id, s.permission, s.granted_by_user_id AS by_user_id,
    s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at
  FROM memory_shares s JOIN memories m ON m.id = s.memory_id
  WHERE m.deleted_at IS NULL AND (m.project_id = $1::uuid OR m.scope = 'team')
  UNION ALL
  SELECT 'rule', r.id, NULL::uuid, r.tag, r.project_id, r.grantee_user_id, r.grantee_agent_id,
    r.permission, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
  FROM memory_share_rules r
  WHERE (r.project_id = $1::uuid OR r.project_id IS NULL)
) g
WHERE (g.created_at, g.id) < ($2::timestamptz, $3::uuid)
ORDER BY g.created_at DESC, g.id DESC LIMIT $4;
