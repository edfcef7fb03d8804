import { type Migration } from '../migration.types';

/**
 * People signing in (@cairn/accounts, docs/sign-in.md): their credentials, their browser
 * sessions and the one-time links that set a password.
 *
 * - `accounts`: a tenant account is bound to one `users` row (its email, name, role and
 *   disabled state stay the user's: one source of truth); a platform-operator account has no
 *   tenant or user and carries its own email and name. The TOTP secrets are sealed (tenant data
 *   key, @cairn/encryption); `totp_last_step` refuses a code used once already.
 * - `browser_sessions`: the id is the hex SHA-256 of the cookie's random value, so the table
 *   holds nothing a browser could present. A tenant session acts through a session token of
 *   its own (`token_id`), so every check tokens get applies to it; a platform session has none.
 * - `password_links`: only the hash of the link's secret; single use, and a newer link voids
 *   the older ones.
 */
export const accounts: Migration = {
  version: 6,
  name: 'accounts',
  async up(sql) {
    await sql(`
      CREATE TABLE cairn.accounts (
        id uuid PRIMARY KEY,
        tenant_id uuid REFERENCES cairn.tenants (id) ON DELETE CASCADE,
        user_id uuid UNIQUE REFERENCES cairn.users (id) ON DELETE CASCADE,
        email text,
        name text,
        password_hash text,
        totp_secret bytea,
        totp_pending bytea,
        totp_last_step bigint,
        disabled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK ((tenant_id IS NULL) = (user_id IS NULL)),
        CHECK (user_id IS NOT NULL OR (email IS NOT NULL AND name IS NOT NULL))
      )`);
    await sql(`CREATE UNIQUE INDEX accounts_platform_email ON cairn.accounts (lower(email)) WHERE user_id IS NULL`);
    await sql(`
      CREATE TABLE cairn.browser_sessions (
        id text PRIMARY KEY CHECK (id ~ '^[0-9a-f]{64}$'),
        account_id uuid REFERENCES cairn.accounts (id) ON DELETE CASCADE,
        kind text NOT NULL CHECK (kind IN ('tenant', 'platform')),
        tenant_id uuid REFERENCES cairn.tenants (id) ON DELETE CASCADE,
        token_id uuid,
        must_create_account boolean NOT NULL DEFAULT false,
        idle_timeout_seconds integer NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        last_seen_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        user_agent text,
        ip text,
        CHECK ((kind = 'tenant') = (token_id IS NOT NULL)),
        CHECK (account_id IS NOT NULL OR must_create_account)
      )`);
    await sql(`CREATE INDEX browser_sessions_account ON cairn.browser_sessions (account_id, created_at DESC)`);
    await sql(`
      CREATE TABLE cairn.password_links (
        id uuid PRIMARY KEY,
        account_id uuid NOT NULL REFERENCES cairn.accounts (id) ON DELETE CASCADE,
        token_hash bytea NOT NULL UNIQUE,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        used_at timestamptz
      )`);
    await sql(`CREATE INDEX password_links_account ON cairn.password_links (account_id) WHERE used_at IS NULL`);
  },
};
