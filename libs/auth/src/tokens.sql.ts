/**
 * The token lookup, on the path of every authenticated request the token cache cannot answer:
 * one indexed round trip (session_tokens.token_hash is unique) for the token and its user;
 * the tenant is @cairn/tenancy's to say (TokenLookups). Run as a named prepared statement: bump
 * the name's suffix whenever the text changes, since PostgreSQL refuses a known name with
 * another text on a connection that prepared it.
 */
export const TOKEN_LOOKUP = {
  name: 'cairn_token_lookup_v3',
  text: `SELECT t.id, t.tenant_id, t.user_id, u.role AS user_role,
              coalesce(u.disabled_at IS NOT NULL, false) AS user_disabled, t.agent_id, t.role, t.projects,
              t.toolsets, t.default_project,
              t.created_at, t.expires_at, t.revoked_at
       FROM cairn.session_tokens t
       LEFT JOIN cairn.users u ON u.id = t.user_id
       WHERE t.token_hash = $1`,
} as const;

/**
 * The same lookup by the token's id: a browser session (@cairn/accounts) holds its token's id,
 * never its secret, and is verified through exactly the checks a presented token gets.
 */
export const TOKEN_LOOKUP_BY_ID = {
  name: 'cairn_token_lookup_by_id_v1',
  text: TOKEN_LOOKUP.text.replace('WHERE t.token_hash = $1', 'WHERE t.id = $1'),
} as const;
