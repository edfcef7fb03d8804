-- The statements of libs/memory/src/memory-transfer.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- MemoryTransferRepository.exportPage (the admin's backup)
-- parameters: $1 uuid[], $2 uuid, $3 bigint
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded FROM memories m
     WHERE m.deleted_at IS NULL AND m.project_id = ANY($1::uuid[]) AND ($2::uuid IS NULL OR m.id > $2::uuid)
     ORDER BY m.id LIMIT $3;

-- MemoryTransferRepository.exportPage (a reader's export)
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 uuid, $8 bigint
SELECT
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded FROM memories m
     WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND ($7::uuid IS NULL OR m.id > $7::uuid)
     ORDER BY m.id LIMIT $8;

-- MemoryTransferRepository.exportRelations
-- parameters: $1 uuid[], $2 uuid[]
SELECT r.from_id AS "fromId", r.to_id AS "toId", r.type, r.note
FROM memory_relations r JOIN memories t ON t.id = r.to_id
WHERE r.from_id = ANY($1::uuid[]) AND t.deleted_at IS NULL AND t.project_id = ANY($2::uuid[])
ORDER BY r.from_id, r.type, r.to_id;

-- MemoryTransferRepository.findExisting
-- parameters: $1 uuid[]
SELECT id, project_id AS "projectId", content, deleted_at IS NOT NULL AS deleted
FROM memories WHERE id = ANY($1::uuid[]);

-- MemoryTransferRepository.idsInScope
-- parameters: $1 uuid[], $2 uuid
SELECT id FROM memories WHERE id = ANY($1::uuid[]) AND (project_id = $2 OR scope = 'team');

-- MemoryTransferRepository.insertRestored
-- parameters: $1 jsonb
WITH inserted AS (
INSERT INTO memories (id, project_id, content, content_hash, category, tags, keywords, importance, confidence,
  source_path, source_line, source_hash, stale, verified_at, author_user_id, author_agent_id, author_token_id,
  pinned, version, access_count, last_accessed_at, archived_at, occurred_at, created_at, updated_at, sensitive, scope)
SELECT r.id, r.project_id, r.content, r.content_hash, r.category, r.tags, r.keywords, r.importance, r.confidence,
  r.source_path, r.source_line, r.source_hash, r.stale, r.verified_at, r.author_user_id, r.author_agent_id, r.author_token_id,
  r.pinned, r.version, r.access_count, r.last_accessed_at, r.archived_at, r.occurred_at, r.created_at,
  r.updated_at, r.sensitive, r.scope
FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, project_id uuid, content text, content_hash text, category text,
  tags text[], keywords text[], importance smallint, confidence real, source_path text, source_line integer,
  source_hash text, stale boolean, verified_at timestamptz, author_user_id uuid, author_agent_id text, author_token_id uuid,
  pinned boolean, version integer, access_count integer, last_accessed_at timestamptz, archived_at timestamptz,
  occurred_at timestamptz, created_at timestamptz, updated_at timestamptz, sensitive boolean, scope text)
ON CONFLICT (id) DO NOTHING RETURNING 1
)
SELECT count(*)::int AS n FROM inserted;

-- MemoryTransferRepository.refreshPlannerStatistics
ANALYZE memories;

-- MemoryTransferRepository.restoreSuperseded
-- parameters: $1 jsonb
UPDATE memories m SET superseded_by = r.by
FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, by uuid) WHERE m.id = r.id;

-- MemoryTransferRepository.insertRelations
-- parameters: $1 jsonb, $2 uuid, $3 text
INSERT INTO memory_relations (id, from_id, to_id, type, note, created_by_user_id, created_by_agent_id)
SELECT r.id, r.from_id, r.to_id, r.type, r.note, $2, $3
FROM jsonb_to_recordset($1::jsonb) AS r(id uuid, from_id uuid, to_id uuid, type text, note text)
ON CONFLICT (from_id, to_id, type) DO NOTHING;
