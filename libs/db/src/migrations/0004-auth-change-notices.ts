import { type Migration } from '../migration.types';

/**
 * Change notices for the token cache (@cairn/auth): every change to a column the token lookup
 * reads sends `pg_notify('cairn_auth_change', '<kind>:<id>')` when its transaction commits, so
 * each replica drops what it cached about that token, user or tenant at once, whichever code
 * path (or operator's SQL) made the change. `last_used_at` and `schema_version` are left out:
 * they change on every use and every migration and decide nothing about access.
 * `cairn.auth_change_probe` lets a replica prove its listener receives notices before it
 * trusts the cache (a pooler in transaction mode, for one, would swallow them).
 */
export const authChangeNotices: Migration = {
  version: 4,
  name: 'auth-change-notices',
  async up(sql) {
    await sql(`
      CREATE FUNCTION cairn.notify_auth_change() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify('cairn_auth_change', TG_ARGV[0] || ':' || OLD.id::text);
        RETURN NULL;
      END $$`);
    await sql(`
      CREATE FUNCTION cairn.auth_change_probe(nonce text) RETURNS void LANGUAGE sql AS $$
        SELECT pg_notify('cairn_auth_change', 'probe:' || nonce)
      $$`);
    await sql(`
      CREATE TRIGGER session_tokens_auth_change
      AFTER UPDATE OF tenant_id, user_id, agent_id, role, projects, toolsets, default_project, token_hash,
        expires_at, revoked_at OR DELETE ON cairn.session_tokens
      FOR EACH ROW EXECUTE FUNCTION cairn.notify_auth_change('token')`);
    await sql(`
      CREATE TRIGGER users_auth_change
      AFTER UPDATE OF tenant_id, role, disabled_at OR DELETE ON cairn.users
      FOR EACH ROW EXECUTE FUNCTION cairn.notify_auth_change('user')`);
    await sql(`
      CREATE TRIGGER tenants_auth_change
      AFTER UPDATE OF slug, name, schema_name, deleted_at OR DELETE ON cairn.tenants
      FOR EACH ROW EXECUTE FUNCTION cairn.notify_auth_change('tenant')`);
  },
};
