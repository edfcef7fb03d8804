-- The statements of libs/memory/src/memories.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- MemoriesRepository.insert
-- parameters: $1 uuid, $2 uuid, $3 text, $4 text, $5 text, $6 text[], $7 text[], $8 smallint, $9 real,
--   $10 text, $11 integer, $12 text, $13 boolean, $14 uuid, $15 text, $16 uuid, $17 timestamp with time zone,
--   $18 timestamp with time zone, $19 boolean, $20 text
WITH m AS (
       INSERT INTO memories (id, project_id, content, content_hash, category, tags, keywords, importance, confidence,
         source_path, source_line, source_hash, pinned, author_user_id, author_agent_id, author_token_id,
         created_at, updated_at, occurred_at, sensitive, scope)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16,
         coalesce($17, now()), coalesce($17, now()), coalesce($18, $17, now()), $19, $20)
       RETURNING *
     )
     SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded FROM m;

-- MemoriesRepository.findById
-- parameters: $1 uuid
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded FROM memories m WHERE m.id = $1;

-- MemoriesRepository.findVisible
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 uuid[]
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded FROM memories m
     WHERE m.id = ANY($7::uuid[]) AND m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE)));

-- MemoriesRepository.findManyVisible (a reader)
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 uuid[]
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded FROM memories m
     WHERE m.id = ANY($7::uuid[]) AND m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE)));

-- MemoriesRepository.findManyVisible (a job)
-- parameters: $1 uuid[], $2 uuid[]
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded FROM memories m
     WHERE m.id = ANY($2::uuid[]) AND m.deleted_at IS NULL AND m.project_id = ANY($1::uuid[]);

-- MemoriesRepository.findByIdForUpdate
-- parameters: $1 uuid
SELECT 1 FROM memories WHERE id = $1 FOR UPDATE;

-- parameters: $1 uuid
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded FROM memories m WHERE m.id = $1;

-- MemoriesRepository.findManyById
-- parameters: $1 uuid[]
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded FROM memories m WHERE m.id = ANY($1::uuid[]) AND m.deleted_at IS NULL;

-- MemoriesRepository.findManyByIdForUpdate
-- parameters: $1 uuid[]
SELECT 1 FROM memories WHERE id = ANY($1::uuid[]) ORDER BY id FOR UPDATE;

-- parameters: $1 uuid[]
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded FROM memories m WHERE m.id = ANY($1::uuid[]) AND m.deleted_at IS NULL;

-- MemoriesRepository.list (a reader's first page)
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 bigint
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded FROM memories m WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.archived_at IS NULL AND m.superseded_by IS NULL
     ORDER BY m.created_at DESC, m.id DESC LIMIT $7;

-- MemoriesRepository.list (every filter, after a memory)
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 text[], $8 text[], $9 text,
--   $10 uuid, $11 timestamp with time zone, $12 timestamp with time zone, $13 timestamp with time zone,
--   $14 timestamp with time zone, $15 boolean, $16 boolean, $17 uuid, $18 bigint
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded FROM memories m WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.category = ANY($7::text[]) AND m.tags && $8::text[] AND m.author_agent_id = $9 AND m.author_user_id = $10::uuid AND m.created_at >= $11 AND m.created_at < $12 AND m.occurred_at >= $13 AND m.occurred_at < $14 AND m.stale = $15 AND m.pinned = $16 AND (m.created_at, m.id) < (SELECT c.created_at, c.id FROM memories c WHERE c.id = $17::uuid)
     ORDER BY m.created_at DESC, m.id DESC LIMIT $18;

-- MemoriesRepository.rankable, no snapshot: returns the corpus as a value: search renders its
--   condition inside the ranking statements (libs/search/sql, libs/memory/sql/memory-corpus.sql)

-- MemoriesRepository.update
-- parameters: $1 uuid, $2 text, $3 text, $4 text, $5 text[], $6 text[], $7 smallint, $8 real, $9 text,
--   $10 integer, $11 text, $12 boolean, $13 boolean, $14 timestamp with time zone, $15 boolean
WITH dropped AS (INSERT INTO memory_grant_notices (memory_id, grantee_user_id, grantee_agent_id)
SELECT m.id, r.grantee_user_id, r.grantee_agent_id
FROM memories m JOIN memory_share_rules r ON r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE)
WHERE m.id = $1::uuid AND m.scope = 'private' AND NOT (r.tag = ANY($5::text[])))
   UPDATE memories SET content = $2, content_hash = $3, category = $4, tags = $5, keywords = $6, importance = $7,
     confidence = $8, source_path = $9, source_line = $10, source_hash = $11, pinned = $12,
     stale = CASE WHEN $13 THEN false ELSE stale END, occurred_at = coalesce($14, occurred_at),
     sensitive = coalesce($15, sensitive),
     -- A vector of old content must never rank the new content: drop it until re-embedded.
     embedding = CASE WHEN content_hash = $3 THEN embedding END,
     embedding_model = CASE WHEN content_hash = $3 THEN embedding_model END,
     embedded_hash = CASE WHEN content_hash = $3 THEN embedded_hash END,
     embedded_at = CASE WHEN content_hash = $3 THEN embedded_at END,
     version = version + 1, updated_at = now(), change_xid = pg_current_xact_id()
   WHERE id = $1;

-- parameters: $1 uuid
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded FROM memories m WHERE m.id = $1;

-- MemoriesRepository.softDelete
-- parameters: $1 uuid
UPDATE memories SET deleted_at = now(), updated_at = now(), change_xid = pg_current_xact_id()
WHERE id = $1 AND deleted_at IS NULL;

-- MemoriesRepository.markSuperseded
-- parameters: $1 uuid[], $2 uuid
UPDATE memories SET superseded_by = $2, updated_at = now(), change_xid = pg_current_xact_id()
WHERE id = ANY($1::uuid[]) AND id <> $2;

-- MemoriesRepository.setStale
-- parameters: $1 uuid, $2 boolean
UPDATE memories SET stale = $2, verified_at = now(), updated_at = now(), change_xid = pg_current_xact_id()
WHERE id = $1;

-- parameters: $1 uuid
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded FROM memories m WHERE m.id = $1;

-- MemoriesRepository.applyAccess
-- parameters: $1 uuid[], $2 integer[]
UPDATE memories m SET access_count = m.access_count + u.n, last_accessed_at = now(),
  confidence = least(1.0, m.confidence + 0.02 * u.n)
FROM unnest($1::uuid[], $2::int[]) AS u(id, n)
WHERE m.id = u.id;
