-- my_shares (SharingListings.myShares): shares and tag rules of the project, newest first, keyset by
-- (created_at, id) carried in the cursor.

-- the caller's, one memory
-- parameters:
--   $1 = "00000000-0000-4000-8000-000000000001"
--   $2 = "00000000-0000-4000-8000-000000000002"
--   $3 = "cursor:bob"
--   $4 = "00000000-0000-4000-8000-000000000003"
--   $5 = "00000000-0000-4000-8000-0000000000aa"
--   $6 = 51
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

-- every one (an admin's all=true), after a position
-- parameters:
--   $1 = "00000000-0000-4000-8000-000000000001"
--   $2 = "2026-01-02T03:04:05.678901Z"
--   $3 = "00000000-0000-4000-8000-0000000000aa"
--   $4 = 51
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
