import { type Migration } from '../migration.types';

/**
 * A new tenant's schema is created from the baseline script, which stands for the migrations up
 * to its version (libs/tenancy/src/tenant-schema-baseline.ts). Each is still recorded, marked as
 * applied through the baseline, so an operator reading the history knows it was not replayed
 * (and why its duration is 0).
 */
export const tenantMigrationBaseline: Migration = {
  version: 13,
  name: 'tenant-migration-baseline',
  async up(sql) {
    // A constant default: no table rewrite, whatever the table holds.
    await sql(`ALTER TABLE cairn.tenant_migrations ADD COLUMN via_baseline boolean NOT NULL DEFAULT false`);
  },
};
