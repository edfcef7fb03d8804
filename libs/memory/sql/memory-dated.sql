-- Dated candidates (MemoryRecall through MemoriesRepository.datedCandidates): memories that occurred near a
-- question's date range, nearest first, added to what the rankers found; memories_project_occurred serves it.

-- a boost ("last Saturday"): the range widened to where closeness falls to a quarter
-- parameters:
--   $1 = ["00000000-0000-4000-8000-000000000001"]
--   $2 = "00000000-0000-4000-8000-000000000003"
--   $3 = "00000000-0000-4000-8000-000000000002"
--   $4 = "00000000-0000-4000-8000-000000000002"
--   $5 = "claude-code"
--   $6 = "2024-06-06T00:00:00.000Z"
--   $7 = "2024-06-11T00:00:00.000Z"
--   $8 = "2024-06-08T00:00:00.000Z"
--   $9 = "2024-06-09T00:00:00.000Z"
--   $10 = 30
SELECT m.id FROM memories m
    WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR (m.author_token_id = $2::uuid OR m.author_user_id = $3::uuid) OR (EXISTS (SELECT 1 FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $4::uuid OR s.grantee_agent_id = $5)) OR EXISTS (SELECT 1 FROM memory_share_rules r WHERE (r.grantee_user_id = $4::uuid OR r.grantee_agent_id = $5) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND (m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id))))) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.occurred_at >= $6 AND m.occurred_at < $7
    ORDER BY greatest(interval '0', $8::timestamptz - m.occurred_at, m.occurred_at - $9::timestamptz), m.occurred_at DESC, m.id
    LIMIT $10;

-- an open range ("before June 2024")
-- parameters:
--   $1 = ["00000000-0000-4000-8000-000000000001"]
--   $2 = "00000000-0000-4000-8000-000000000003"
--   $3 = "00000000-0000-4000-8000-000000000002"
--   $4 = "00000000-0000-4000-8000-000000000002"
--   $5 = "claude-code"
--   $6 = "2024-08-01T00:00:00.000Z"
--   $7 = "2024-06-01T00:00:00.000Z"
--   $8 = 30
SELECT m.id FROM memories m
    WHERE m.deleted_at IS NULL AND (m.project_id = ANY($1::uuid[]) OR m.scope = 'team') AND (m.scope <> 'private' OR (m.author_token_id = $2::uuid OR m.author_user_id = $3::uuid) OR (EXISTS (SELECT 1 FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $4::uuid OR s.grantee_agent_id = $5)) OR EXISTS (SELECT 1 FROM memory_share_rules r WHERE (r.grantee_user_id = $4::uuid OR r.grantee_agent_id = $5) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND (m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id))))) AND m.archived_at IS NULL AND m.superseded_by IS NULL AND m.occurred_at < $6
    ORDER BY greatest(interval '0', m.occurred_at - $7::timestamptz), m.occurred_at DESC, m.id
    LIMIT $8;
