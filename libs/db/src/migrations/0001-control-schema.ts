import { type Migration } from '../migration.types';

/** Tenants, users, session tokens, platform audit and per-tenant migration state. */
export const controlSchema: Migration = {
  version: 1,
  name: 'control-schema',
  async up(sql) {
    // pgvector lives in `public` so every tenant schema reaches it through the search path.
    await sql(`CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public`);
    await sql(`
      CREATE TABLE cairn.tenants (
        id uuid PRIMARY KEY,
        slug text NOT NULL,
        name text NOT NULL,
        schema_name text NOT NULL UNIQUE CHECK (schema_name ~ '^t_[0-9a-z]{1,40}$'),
        schema_version integer NOT NULL DEFAULT 0,
        created_at timestamptz NOT NULL DEFAULT now(),
        deleted_at timestamptz
      )`);
    // A deleted tenant frees its slug; at most one live tenant per slug.
    await sql(`CREATE UNIQUE INDEX tenants_live_slug ON cairn.tenants (slug) WHERE deleted_at IS NULL`);
    await sql(`
      CREATE TABLE cairn.users (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES cairn.tenants (id) ON DELETE CASCADE,
        email text NOT NULL,
        name text NOT NULL,
        role text NOT NULL,
        disabled_at timestamptz,
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await sql(`CREATE UNIQUE INDEX users_tenant_email ON cairn.users (tenant_id, lower(email))`);
    await sql(`
      CREATE TABLE cairn.session_tokens (
        id uuid PRIMARY KEY,
        tenant_id uuid NOT NULL REFERENCES cairn.tenants (id) ON DELETE CASCADE,
        user_id uuid REFERENCES cairn.users (id) ON DELETE CASCADE,
        agent_id text,
        role text NOT NULL,
        projects text[] NOT NULL,
        label text,
        token_hash bytea NOT NULL UNIQUE,
        hint text NOT NULL,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        revoked_at timestamptz,
        last_used_at timestamptz
      )`);
    await sql(`CREATE INDEX session_tokens_tenant ON cairn.session_tokens (tenant_id, created_at DESC)`);
    await sql(`CREATE INDEX session_tokens_user ON cairn.session_tokens (user_id) WHERE user_id IS NOT NULL`);
    await sql(`
      CREATE TABLE cairn.platform_audit (
        id bigserial PRIMARY KEY,
        at timestamptz NOT NULL DEFAULT now(),
        actor text NOT NULL,
        tenant_id uuid,
        action text NOT NULL,
        target text,
        outcome text NOT NULL CHECK (outcome IN ('success', 'denied', 'failure')),
        status integer,
        request_id text,
        details jsonb
      )`);
    await sql(`CREATE INDEX platform_audit_tenant ON cairn.platform_audit (tenant_id, id DESC)`);
    await sql(`
      CREATE TABLE cairn.tenant_migrations (
        tenant_id uuid NOT NULL REFERENCES cairn.tenants (id) ON DELETE CASCADE,
        version integer NOT NULL,
        name text NOT NULL,
        applied_at timestamptz NOT NULL DEFAULT now(),
        duration_ms integer NOT NULL,
        PRIMARY KEY (tenant_id, version)
      )`);
  },
};
