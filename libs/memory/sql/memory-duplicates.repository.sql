-- The statements of libs/memory/src/memory-duplicates.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- MemoryDuplicatesRepository.walk (first page)
-- parameters: $1 uuid, $2 text, $3 uuid, $4 uuid, $5 text, $6 bigint, $7 uuid
SELECT w.id, (extract(epoch FROM w.created_at) * 1000000)::bigint::text AS at FROM ((SELECT c.id, c.created_at FROM memories c WHERE c.project_id = $7::uuid AND c.scope <> 'team' AND c.deleted_at IS NULL AND c.archived_at IS NULL AND c.superseded_by IS NULL
AND (c.scope <> 'private' OR ((c.author_token_id = $3::uuid OR c.author_user_id = $1::uuid OR ($1::uuid IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = $2::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
   s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
 FROM memory_shares s WHERE s.memory_id = c.id AND (s.grantee_user_id = $4::uuid OR s.grantee_agent_id = $5::text)
 UNION ALL
 SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
 FROM memory_share_rules r
 WHERE (r.grantee_user_id = $4::uuid OR r.grantee_agent_id = $5::text) AND r.tag = ANY(c.tags) AND (r.project_id IS NULL OR r.project_id = c.project_id) AND ((c.author_token_id = r.owner_token_id OR c.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = r.owner_agent_id)) IS TRUE)))
  ORDER BY c.created_at DESC, c.id DESC LIMIT $6) UNION ALL (SELECT c.id, c.created_at FROM memories c WHERE c.scope = 'team' AND c.deleted_at IS NULL AND c.archived_at IS NULL AND c.superseded_by IS NULL
AND (c.scope <> 'private' OR ((c.author_token_id = $3::uuid OR c.author_user_id = $1::uuid OR ($1::uuid IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = $2::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
   s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
 FROM memory_shares s WHERE s.memory_id = c.id AND (s.grantee_user_id = $4::uuid OR s.grantee_agent_id = $5::text)
 UNION ALL
 SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
 FROM memory_share_rules r
 WHERE (r.grantee_user_id = $4::uuid OR r.grantee_agent_id = $5::text) AND r.tag = ANY(c.tags) AND (r.project_id IS NULL OR r.project_id = c.project_id) AND ((c.author_token_id = r.owner_token_id OR c.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = r.owner_agent_id)) IS TRUE)))
  ORDER BY c.created_at DESC, c.id DESC LIMIT $6)) w
 ORDER BY w.created_at DESC, w.id DESC LIMIT $6;

-- MemoryDuplicatesRepository.walk (from a position)
-- parameters: $1 uuid, $2 text, $3 uuid, $4 uuid, $5 text, $6 bigint, $7 uuid, $8 bigint, $9 uuid
SELECT w.id, (extract(epoch FROM w.created_at) * 1000000)::bigint::text AS at FROM ((SELECT c.id, c.created_at FROM memories c WHERE c.project_id = $9::uuid AND c.scope <> 'team' AND c.deleted_at IS NULL AND c.archived_at IS NULL AND c.superseded_by IS NULL
AND (c.scope <> 'private' OR ((c.author_token_id = $3::uuid OR c.author_user_id = $1::uuid OR ($1::uuid IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = $2::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
   s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
 FROM memory_shares s WHERE s.memory_id = c.id AND (s.grantee_user_id = $4::uuid OR s.grantee_agent_id = $5::text)
 UNION ALL
 SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
 FROM memory_share_rules r
 WHERE (r.grantee_user_id = $4::uuid OR r.grantee_agent_id = $5::text) AND r.tag = ANY(c.tags) AND (r.project_id IS NULL OR r.project_id = c.project_id) AND ((c.author_token_id = r.owner_token_id OR c.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = r.owner_agent_id)) IS TRUE))) AND (c.created_at, c.id) <= ('epoch'::timestamptz + $6::bigint * interval '1 microsecond',
     $7::uuid)
  ORDER BY c.created_at DESC, c.id DESC LIMIT $8) UNION ALL (SELECT c.id, c.created_at FROM memories c WHERE c.scope = 'team' AND c.deleted_at IS NULL AND c.archived_at IS NULL AND c.superseded_by IS NULL
AND (c.scope <> 'private' OR ((c.author_token_id = $3::uuid OR c.author_user_id = $1::uuid OR ($1::uuid IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = $2::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
   s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
 FROM memory_shares s WHERE s.memory_id = c.id AND (s.grantee_user_id = $4::uuid OR s.grantee_agent_id = $5::text)
 UNION ALL
 SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
 FROM memory_share_rules r
 WHERE (r.grantee_user_id = $4::uuid OR r.grantee_agent_id = $5::text) AND r.tag = ANY(c.tags) AND (r.project_id IS NULL OR r.project_id = c.project_id) AND ((c.author_token_id = r.owner_token_id OR c.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = r.owner_agent_id)) IS TRUE))) AND (c.created_at, c.id) <= ('epoch'::timestamptz + $6::bigint * interval '1 microsecond',
     $7::uuid)
  ORDER BY c.created_at DESC, c.id DESC LIMIT $8)) w
 ORDER BY w.created_at DESC, w.id DESC LIMIT $8;

-- MemoryDuplicatesRepository.walk (a job's, the project's memories only)
-- parameters: $1 bigint, $2 uuid
SELECT w.id, (extract(epoch FROM w.created_at) * 1000000)::bigint::text AS at FROM ((SELECT c.id, c.created_at FROM memories c WHERE c.project_id = $2::uuid AND c.deleted_at IS NULL AND c.archived_at IS NULL AND c.superseded_by IS NULL
AND true
  ORDER BY c.created_at DESC, c.id DESC LIMIT $1)) w
 ORDER BY w.created_at DESC, w.id DESC LIMIT $1;

-- MemoryDuplicatesRepository.partners
-- parameters: $1 bigint, $2 uuid[], $3 uuid, $4 text, $5 uuid, $6 uuid, $7 text, $8 uuid[],
--   $9 double precision
WITH probe AS MATERIALIZED (
  SELECT p.id, p.created_at, md5(lower(regexp_replace(btrim(p.content), '\s+', ' ', 'g'))) AS norm,
         CASE WHEN p.embedding_model = 'nomic-embed-text' AND p.embedded_hash = p.content_hash THEN p.embedding END AS embedding
  FROM memories p WHERE p.id = ANY($8::uuid[])
)
SELECT p.id AS probe, s.id AS other, 1::float8 AS similarity, 'same_content' AS reason,
       (s.created_at, s.id) > (p.created_at, p.id) AS "otherFirst"
FROM probe p
CROSS JOIN LATERAL (
  -- OFFSET 0 keeps the lookup on the normalised-content index: flattened, ORDER BY id LIMIT k
  -- lets the planner walk the primary key instead, hashing every row (5 s a memory at 100k).
  SELECT e.id, e.created_at FROM (
    SELECT c.id, c.created_at FROM memories c
    WHERE md5(lower(regexp_replace(btrim(c.content), '\s+', ' ', 'g'))) = p.norm AND c.id <> p.id AND c.deleted_at IS NULL AND (c.project_id = ANY($2::uuid[]) OR c.scope = 'team') AND (c.scope <> 'private' OR ((c.author_token_id = $5::uuid OR c.author_user_id = $3::uuid OR ($3::uuid IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = $4::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
  s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
FROM memory_shares s WHERE s.memory_id = c.id AND (s.grantee_user_id = $6::uuid OR s.grantee_agent_id = $7::text)
UNION ALL
SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
FROM memory_share_rules r
WHERE (r.grantee_user_id = $6::uuid OR r.grantee_agent_id = $7::text) AND r.tag = ANY(c.tags) AND (r.project_id IS NULL OR r.project_id = c.project_id) AND ((c.author_token_id = r.owner_token_id OR c.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = r.owner_agent_id)) IS TRUE))) AND c.archived_at IS NULL AND c.superseded_by IS NULL
    OFFSET 0
  ) e
  ORDER BY e.id LIMIT $1
) s
UNION ALL
SELECT p.id, n.id, n.similarity, 'similar_vector', (n.created_at, n.id) > (p.created_at, p.id)
FROM probe p
CROSS JOIN LATERAL (
  SELECT c.id, c.created_at, (1 - (c.embedding::vector(768) <=> p.embedding::vector(768)))::float8 AS similarity
  FROM memories c
  WHERE c.embedding_model = 'nomic-embed-text' AND c.id <> p.id AND c.deleted_at IS NULL AND (c.project_id = ANY($2::uuid[]) OR c.scope = 'team') AND (c.scope <> 'private' OR ((c.author_token_id = $5::uuid OR c.author_user_id = $3::uuid OR ($3::uuid IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = $4::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
  s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
FROM memory_shares s WHERE s.memory_id = c.id AND (s.grantee_user_id = $6::uuid OR s.grantee_agent_id = $7::text)
UNION ALL
SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
FROM memory_share_rules r
WHERE (r.grantee_user_id = $6::uuid OR r.grantee_agent_id = $7::text) AND r.tag = ANY(c.tags) AND (r.project_id IS NULL OR r.project_id = c.project_id) AND ((c.author_token_id = r.owner_token_id OR c.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = r.owner_agent_id)) IS TRUE))) AND c.archived_at IS NULL AND c.superseded_by IS NULL
  ORDER BY c.embedding::vector(768) <=> p.embedding::vector(768)
  LIMIT $1
) n
WHERE p.embedding IS NOT NULL AND n.similarity >= $9::float8;
