-- The statements of libs/memory/src/memory-digest.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- MemoryDigestRepository.countSince
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 timestamp with time zone
SELECT count(*)::int AS n FROM memories m
   WHERE (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
     s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
   FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
   UNION ALL
   SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
   FROM memory_share_rules r
   WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE)))
AND m.deleted_at IS NULL AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.created_at > $7;

-- MemoryDigestRepository.since
-- parameters: $1 uuid[], $2 uuid, $3 text, $4 uuid, $5 uuid, $6 text, $7 timestamp with time zone, $8 bigint
SELECT m.id, m.content, m.category, m.importance, m.scope, m.author_agent_id AS "agentId",
     m.created_at AS "createdAt"
   FROM memories m WHERE (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
     s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
   FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
   UNION ALL
   SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
   FROM memory_share_rules r
   WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE)))
AND m.deleted_at IS NULL AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.created_at > $7
   ORDER BY m.importance DESC, m.created_at DESC, m.id DESC
   LIMIT $8;

-- MemoryDigestRepository.withoutVector
-- parameters: $1 uuid, $2 text
SELECT count(*)::int AS n FROM memories m
WHERE m.project_id = $1 AND m.deleted_at IS NULL
  AND (m.embedding_model IS DISTINCT FROM $2 OR m.embedded_hash IS DISTINCT FROM m.content_hash);
