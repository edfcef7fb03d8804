import { type Migration } from '../migration.types';

/**
 * Tenant placement (docs/scaling.md): the cluster a tenant's schema lives on (`home` is
 * DATABASE_URL's, where this table is), and the cluster a move is taking it to while one runs.
 * The change-notice trigger does not watch these: placement decides where data is, not who may
 * reach it, and a replica that still holds an old placement finds out at its next transaction.
 */
export const tenantPlacement: Migration = {
  version: 12,
  name: 'tenant-placement',
  async up(sql) {
    await sql(`ALTER TABLE cairn.tenants ADD COLUMN cluster text NOT NULL DEFAULT 'home'`);
    await sql(`ALTER TABLE cairn.tenants ADD COLUMN moving_to text`);
    // Provisioning's "fewest live tenants" policy counts per cluster.
    await sql(`CREATE INDEX tenants_cluster ON cairn.tenants (cluster) WHERE deleted_at IS NULL`);
  },
};
