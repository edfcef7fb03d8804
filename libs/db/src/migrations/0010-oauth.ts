import { type Migration } from '../migration.types';

/**
 * Cairn's own OAuth 2.1 authorization server (@cairn/oauth, docs/oauth.md).
 *
 * - `oauth_records`: what oidc-provider keeps between requests (interactions, authorization codes,
 *   access and refresh tokens, registered clients, its grants), one row per artifact through its
 *   adapter interface. Where the artifact's id is the secret a client presents (a code, a token, a
 *   registration access token, the provider's session cookie), `id` is its SHA-256 instead, so the
 *   table holds nothing that could be presented. `expires_at` lets expired rows be swept.
 * - `oauth_grants`: a person's consent, what it allows, and the session token it acts through
 *   (`token_id`, never handed out): the gateway resolves an access token to its grant, then to
 *   that token, so revocation, expiry, a disabled user, a suspended tenant and role caps apply to
 *   an OAuth client exactly as to an agent's token.
 */
export const oauth: Migration = {
  version: 10,
  name: 'oauth',
  async up(sql) {
    await sql(`
      CREATE TABLE cairn.oauth_records (
        kind text NOT NULL CHECK (kind ~ '^[A-Za-z]{1,40}$'),
        id text NOT NULL CHECK (length(id) BETWEEN 1 AND 2048),
        payload jsonb NOT NULL,
        grant_id text,
        uid text,
        user_code text,
        expires_at timestamptz,
        consumed_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (kind, id)
      )`);
    await sql(`CREATE INDEX oauth_records_grant ON cairn.oauth_records (grant_id) WHERE grant_id IS NOT NULL`);
    await sql(`CREATE INDEX oauth_records_uid ON cairn.oauth_records (kind, uid) WHERE uid IS NOT NULL`);
    await sql(
      `CREATE INDEX oauth_records_user_code ON cairn.oauth_records (kind, user_code) WHERE user_code IS NOT NULL`,
    );
    await sql(`CREATE INDEX oauth_records_expires ON cairn.oauth_records (expires_at) WHERE expires_at IS NOT NULL`);
    await sql(`
      CREATE TABLE cairn.oauth_grants (
        id text PRIMARY KEY CHECK (length(id) BETWEEN 1 AND 200),
        tenant_id uuid NOT NULL REFERENCES cairn.tenants (id) ON DELETE CASCADE,
        user_id uuid NOT NULL REFERENCES cairn.users (id) ON DELETE CASCADE,
        token_id uuid NOT NULL,
        client_id text NOT NULL CHECK (length(client_id) BETWEEN 1 AND 2048),
        client_name text,
        client_uri text,
        role text NOT NULL,
        projects text[] NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz
      )`);
    await sql(`CREATE INDEX oauth_grants_tenant ON cairn.oauth_grants (tenant_id, created_at DESC)`);
    await sql(`CREATE INDEX oauth_grants_user ON cairn.oauth_grants (user_id, created_at DESC)`);
  },
};
