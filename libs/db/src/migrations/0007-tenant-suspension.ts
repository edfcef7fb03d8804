import { type Migration } from '../migration.types';

/**
 * A tenant can be suspended (POST /v1/tenants/{slug}/suspend) and resumed: while `suspended_at`
 * is set, its tokens and browser sessions are refused with 403 `tenant_suspended`, and nothing
 * of it is deleted. The tenants' change-notice trigger (0004) is redefined to watch the new
 * column too, so every replica drops its cached token answers at once when a tenant is suspended.
 */
export const tenantSuspension: Migration = {
  version: 7,
  name: 'tenant-suspension',
  async up(sql) {
    await sql(`ALTER TABLE cairn.tenants ADD COLUMN suspended_at timestamptz`);
    await sql(`DROP TRIGGER tenants_auth_change ON cairn.tenants`);
    await sql(`
      CREATE TRIGGER tenants_auth_change
      AFTER UPDATE OF slug, name, schema_name, deleted_at, suspended_at OR DELETE ON cairn.tenants
      FOR EACH ROW EXECUTE FUNCTION cairn.notify_auth_change('tenant')`);
  },
};
