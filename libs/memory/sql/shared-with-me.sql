-- shared_with_me (SharingListings.sharedWithMe): the project's and tenant-wide memories shared with the
-- caller by a share or a live tag rule, not its own, each with its strongest grant; the page after a memory.

-- a user-bound agent, second page
-- parameters:
--   $1 = "00000000-0000-4000-8000-000000000002"
--   $2 = "cursor:bob"
--   $3 = "00000000-0000-4000-8000-000000000002"
--   $4 = "cursor:bob"
--   $5 = "00000000-0000-4000-8000-000000000001"
--   $6 = "00000000-0000-4000-8000-000000000002"
--   $7 = "cursor:bob"
--   $8 = "00000000-0000-4000-8000-000000000003"
--   $9 = "00000000-0000-4000-8000-0000000000aa"
--   $10 = 21
SELECT 
  m.id, m.project_id, m.scope, m.content, m.content_hash, m.category, m.tags, m.keywords,
  m.importance, m.confidence, m.source_path, m.source_line, m.source_hash, m.stale, m.verified_at,
  m.author_user_id, m.author_agent_id, m.author_token_id, m.pinned, m.sensitive, m.version, m.superseded_by,
  m.access_count, m.last_accessed_at, m.archived_at, m.deleted_at, m.occurred_at, m.created_at, m.updated_at,
  (m.embedded_hash IS NOT NULL AND m.embedded_hash = m.content_hash) AS embedded, g.permission AS grant_permission, g.via AS grant_via, g.grant_id,
       g.by_user_id, g.by_agent_id, g.by_token_id, g.granted_at
     FROM memories m
     LEFT JOIN LATERAL (
       SELECT * FROM (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
         s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
       FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $1::uuid OR s.grantee_agent_id = $2::text)
       UNION ALL
       SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
       FROM memory_share_rules r
       WHERE (r.grantee_user_id = $1::uuid OR r.grantee_agent_id = $2::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE)) x
       ORDER BY (x.permission = 'write') DESC, (x.via = 'share') DESC, x.granted_at, x.grant_id LIMIT 1
     ) g ON true
     WHERE m.deleted_at IS NULL AND (m.project_id = $5::uuid OR m.scope = 'team')
       AND NOT ((m.author_token_id = $8::uuid OR m.author_user_id = $6::uuid OR ($6::uuid IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = $7::text)) IS TRUE) AND EXISTS (SELECT s.permission, 'share' AS via, s.id AS grant_id, s.granted_by_user_id AS by_user_id,
         s.granted_by_agent_id AS by_agent_id, s.granted_by_token_id AS by_token_id, s.created_at AS granted_at
       FROM memory_shares s WHERE s.memory_id = m.id AND (s.grantee_user_id = $3::uuid OR s.grantee_agent_id = $4::text)
       UNION ALL
       SELECT r.permission, 'rule', r.id, r.owner_user_id, r.owner_agent_id, r.owner_token_id, r.created_at
       FROM memory_share_rules r
       WHERE (r.grantee_user_id = $3::uuid OR r.grantee_agent_id = $4::text) AND r.tag = ANY(m.tags) AND (r.project_id IS NULL OR r.project_id = m.project_id) AND ((m.author_token_id = r.owner_token_id OR m.author_user_id = r.owner_user_id OR (r.owner_user_id IS NULL AND m.author_user_id IS NULL AND m.author_agent_id = r.owner_agent_id)) IS TRUE)) AND (m.created_at, m.id) < (SELECT c.created_at, c.id FROM memories c WHERE c.id = $9::uuid)
     ORDER BY m.created_at DESC, m.id DESC LIMIT $10;
