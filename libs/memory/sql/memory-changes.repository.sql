-- The statements of libs/memory/src/memory-changes.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- MemoryChangesRepository.horizon
SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin;

-- MemoryChangesRepository.changedSince (an agent, after a position: rows and grant notices)
-- parameters: $1 bigint, $2 uuid[], $3 uuid, $4 text, $5 uuid, $6 uuid, $7 text, $8 xid8, $9 xid8, $10 uuid,
--   $11 uuid, $12 text, $13 uuid[], $14 uuid, $15 text, $16 uuid, $17 uuid, $18 text, $19 uuid[], $20 xid8,
--   $21 xid8, $22 uuid
SELECT * FROM (
   SELECT DISTINCT ON (c.feed_xid, c.id) c.* FROM ((SELECT m.change_xid AS feed_xid, true AS visible, NULL::timestamptz AS noticed_at,
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded
    FROM memories m
    WHERE (m.project_id = ANY($2::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $5::uuid OR m.author_user_id = $3::uuid OR ($3::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $4::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $6::uuid OR s.grantee_agent_id = $7::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $6::uuid OR r.grantee_agent_id = $7::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.change_xid < $8::xid8 AND (m.change_xid, m.id) > ($9::xid8, $10::uuid)
    ORDER BY m.change_xid, m.id LIMIT $1) UNION ALL (SELECT n.change_xid, (m.project_id = ANY($13::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $16::uuid OR m.author_user_id = $14::uuid OR ($14::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $15::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $17::uuid OR s.grantee_agent_id = $18::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $17::uuid OR r.grantee_agent_id = $18::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))), n.created_at,
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded
      FROM memory_grant_notices n JOIN memories m ON m.id = n.memory_id
      WHERE (n.grantee_user_id = $11::uuid
      OR n.grantee_agent_id = $12::text) AND m.project_id = ANY($19::uuid[])
        AND n.change_xid < $20::xid8 AND (n.change_xid, n.memory_id) > ($21::xid8, $22::uuid)
      ORDER BY n.change_xid, n.memory_id LIMIT $1)) c
   ORDER BY c.feed_xid, c.id, c.noticed_at NULLS FIRST
 ) page ORDER BY page.feed_xid, page.id LIMIT $1;

-- MemoryChangesRepository.changedSince (a reader, from the start)
-- parameters: $1 bigint, $2 uuid[], $3 uuid, $4 text, $5 uuid, $6 uuid, $7 text, $8 xid8, $9 uuid, $10 text,
--   $11 uuid[], $12 uuid, $13 text, $14 uuid, $15 uuid, $16 text, $17 uuid[], $18 xid8
SELECT * FROM (
   SELECT DISTINCT ON (c.feed_xid, c.id) c.* FROM ((SELECT m.change_xid AS feed_xid, true AS visible, NULL::timestamptz AS noticed_at,
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded
    FROM memories m
    WHERE (m.project_id = ANY($2::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $5::uuid OR m.author_user_id = $3::uuid OR ($3::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $4::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $6::uuid OR s.grantee_agent_id = $7::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $6::uuid OR r.grantee_agent_id = $7::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.change_xid < $8::xid8
    ORDER BY m.change_xid, m.id LIMIT $1) UNION ALL (SELECT n.change_xid, (m.project_id = ANY($11::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $14::uuid OR m.author_user_id = $12::uuid OR ($12::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $13::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
       s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
     FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $15::uuid OR s.grantee_agent_id = $16::text)
     UNION ALL
     SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
     FROM memory_share_rules r
     WHERE (r.grantee_user_id = $15::uuid OR r.grantee_agent_id = $16::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))), n.created_at,
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded
      FROM memory_grant_notices n JOIN memories m ON m.id = n.memory_id
      WHERE (n.grantee_user_id = $9::uuid
      OR n.grantee_agent_id = $10::text) AND m.project_id = ANY($17::uuid[])
        AND n.change_xid < $18::xid8
      ORDER BY n.change_xid, n.memory_id LIMIT $1)) c
   ORDER BY c.feed_xid, c.id, c.noticed_at NULLS FIRST
 ) page ORDER BY page.feed_xid, page.id LIMIT $1;

-- MemoryChangesRepository.changedSince (a job, from a horizon: rows only)
-- parameters: $1 bigint, $2 uuid[], $3 xid8, $4 xid8
SELECT * FROM (
   SELECT DISTINCT ON (c.feed_xid, c.id) c.* FROM ((SELECT m.change_xid AS feed_xid, true AS visible, NULL::timestamptz AS noticed_at,
m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
(m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded
    FROM memories m
    WHERE m.project_id = ANY($2::uuid[]) AND m.change_xid < $3::xid8 AND m.change_xid >= $4::xid8
    ORDER BY m.change_xid, m.id LIMIT $1)) c
   ORDER BY c.feed_xid, c.id, c.noticed_at NULLS FIRST
 ) page ORDER BY page.feed_xid, page.id LIMIT $1;
