-- Dated candidates (MemoryRecall through MemoriesRepository.datedCandidates): memories that occurred near a
-- question's date range, nearest first, added to what the rankers found; memories_project_occurred serves it.

-- a boost ("last Saturday"): the range widened to where closeness falls to a quarter
-- parameters:
--   $1 = ["00000000-0000-4000-8000-000000000001"]
--   $2 = "00000000-0000-4000-8000-000000000002"
--   $3 = "claude-code"
--   $4 = "00000000-0000-4000-8000-000000000003"
--   $5 = "00000000-0000-4000-8000-000000000002"
--   $6 = "claude-code"
--   $7 = "2024-06-06T00:00:00.000Z"
--   $8 = "2024-06-11T00:00:00.000Z"
--   $9 = "2024-06-08T00:00:00.000Z"
--   $10 = "2024-06-09T00:00:00.000Z"
--   $11 = 30
SELECT m.id FROM memories m
    WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
         s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
       FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
       UNION ALL
       SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
       FROM memory_share_rules r
       WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.occurred_at >= $7 AND m.occurred_at < $8
    ORDER BY greatest(interval '0', $9::timestamptz - m.occurred_at, m.occurred_at - $10::timestamptz), m.occurred_at DESC, m.id
    LIMIT $11;

-- an open range ("before June 2024")
-- parameters:
--   $1 = ["00000000-0000-4000-8000-000000000001"]
--   $2 = "00000000-0000-4000-8000-000000000002"
--   $3 = "claude-code"
--   $4 = "00000000-0000-4000-8000-000000000003"
--   $5 = "00000000-0000-4000-8000-000000000002"
--   $6 = "claude-code"
--   $7 = "2024-08-01T00:00:00.000Z"
--   $8 = "2024-06-01T00:00:00.000Z"
--   $9 = 30
SELECT m.id FROM memories m
    WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR ((m.author_token_id = $4::uuid OR m.author_user_id = $2::uuid OR ($2::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $3::text)) IS TRUE) OR EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
         s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
       FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $5::uuid OR s.grantee_agent_id = $6::text)
       UNION ALL
       SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
       FROM memory_share_rules r
       WHERE (r.grantee_user_id = $5::uuid OR r.grantee_agent_id = $6::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE))) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.occurred_at < $7
    ORDER BY greatest(interval '0', m.occurred_at - $8::timestamptz), m.occurred_at DESC, m.id
    LIMIT $9;
