-- Token lookup: every authenticated request of the api and the MCP gateway (TokenVerifier → TokensRepository.lookup,
-- libs/auth/src/tokens.repository.ts), as the named prepared statement cairn_token_lookup_v3 on the shared pool.
-- $1 = SHA-256 of the presented token. A change to the text needs a new statement name (the line above).
SELECT t.id, t.tenant_id, t.user_id, u.role AS user_role,
              coalesce(u.disabled_at IS NOT NULL, false) AS user_disabled, t.agent_id, t.role, t.projects,
              t.toolsets, t.default_project,
              t.created_at, t.expires_at, t.revoked_at
       FROM cairn.session_tokens t
       LEFT JOIN cairn.users u ON u.id = t.user_id
       WHERE t.token_hash = $1;
