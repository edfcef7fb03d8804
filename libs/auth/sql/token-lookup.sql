-- Token lookup: every authenticated request of the api and the MCP gateway (TokenVerifier → TokensRepository.lookup,
-- libs/auth/src/tokens.repository.ts), as the named prepared statement cairn_token_lookup_v2 on the shared pool.
-- $1 = SHA-256 of the presented token. A change to the text needs a new statement name (the line above).
SELECT t.id, t.tenant_id, tn.slug AS tenant_slug, tn.name AS tenant_name, tn.schema_name AS tenant_schema,
              tn.deleted_at IS NOT NULL AS tenant_deleted, t.user_id, u.role AS user_role,
              coalesce(u.disabled_at IS NOT NULL, false) AS user_disabled, t.agent_id, t.role, t.projects,
              t.toolsets, t.default_project,
              t.created_at, t.expires_at, t.revoked_at
       FROM cairn.session_tokens t
       JOIN cairn.tenants tn ON tn.id = t.tenant_id
       LEFT JOIN cairn.users u ON u.id = t.user_id
       WHERE t.token_hash = $1;
