/**
 * The token lookup, on every authenticated request's path: one indexed round trip
 * (session_tokens.token_hash is unique) for everything verification needs. Run as a named
 * prepared statement: bump the name's suffix whenever the text changes, since PostgreSQL
 * refuses a known name with another text on a connection that prepared it.
 */
export const TOKEN_LOOKUP = {
  name: 'cairn_token_lookup_v2',
  text: `SELECT t.id, t.tenant_id, tn.slug AS tenant_slug, tn.name AS tenant_name, tn.schema_name AS tenant_schema,
              tn.deleted_at IS NOT NULL AS tenant_deleted, t.user_id, u.role AS user_role,
              coalesce(u.disabled_at IS NOT NULL, false) AS user_disabled, t.agent_id, t.role, t.projects,
              t.toolsets, t.default_project,
              t.created_at, t.expires_at, t.revoked_at
       FROM cairn.session_tokens t
       JOIN cairn.tenants tn ON tn.id = t.tenant_id
       LEFT JOIN cairn.users u ON u.id = t.user_id
       WHERE t.token_hash = $1`,
} as const;
