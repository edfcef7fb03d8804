-- The statements of libs/memory/src/memory-share-grants.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- MemoryShareGrantsRepository.grantsWrite
-- parameters: $1 uuid, $2 uuid, $3 text
SELECT EXISTS (SELECT 1 FROM (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
  s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $2::uuid OR s.grantee_agent_id = $3::text)
UNION ALL
SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
FROM memory_share_rules r
WHERE (r.grantee_user_id = $2::uuid OR r.grantee_agent_id = $3::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE)) g WHERE g.permission = 'write') AS shared FROM memories m WHERE m.id = $1::uuid;
