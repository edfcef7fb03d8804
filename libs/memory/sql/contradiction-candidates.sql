-- Contradiction candidates (ContradictionsService, on store and on a content update): HybridSearch.rank
-- ranks this corpus by keyword with the memory's content, keywords and tags as the query; the
-- candidates' text is then read for the detector (contradiction-candidates.repository.sql).

-- the condition: live memories of the memory's project and team ones its author sees, not itself
-- corpus table: memories (alias c); term statistics of the scopes ["00000000-0000-4000-8000-000000000001","00000000-0000-0000-0000-000000000000"]
-- signals: c.importance, c.confidence, c.pinned, c.created_at
-- parameters:
--   $1 = ["00000000-0000-4000-8000-000000000001"]
--   $2 = "00000000-0000-4000-8000-000000000002"
--   $3 = "claude-code"
--   $4 = "00000000-0000-4000-8000-000000000003"
--   $5 = "00000000-0000-4000-8000-000000000002"
--   $6 = "claude-code"
--   $7 = "00000000-0000-4000-8000-0000000000aa"
c.deleted_at IS NULL AND (c.project_id = ANY($1::uuid[]) OR c.scope = 'team') AND (c.scope <> 'private' OR ((c.author_token_id = $4::uuid OR c.author_user_id = $2::uuid OR ($2::uuid IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
         s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
       FROM memory_shares s WHERE s.memory_id = c.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
       UNION ALL
       SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
       FROM memory_share_rules r
       WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(c.tags) AND (r.project_id IS NULL OR r.project_id = c.project_id) AND ((c.author_token_id = r.owner_token_id OR c.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND c.author_user_id IS NULL AND c.author_agent_id = r.owner_agent_id)) IS TRUE))) AND c.archived_at IS NULL AND c.superseded_by IS NULL AND c.id <> $7;
