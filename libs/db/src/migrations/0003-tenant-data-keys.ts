import { type Migration } from '../migration.types';

/**
 * Envelope encryption (@cairn/encryption): each tenant's data keys, wrapped by the master key.
 * A row per data-key version; the highest version encrypts new data, every version decrypts.
 * `master_key_id` is a fingerprint of the wrapping master key (never the key), so a rotation can
 * tell which rows are re-wrapped and a replica picks the right key while both are in service.
 */
export const tenantDataKeys: Migration = {
  version: 3,
  name: 'tenant-data-keys',
  async up(sql) {
    await sql(`
      CREATE TABLE cairn.tenant_data_keys (
        tenant_id uuid NOT NULL REFERENCES cairn.tenants (id) ON DELETE CASCADE,
        version integer NOT NULL CHECK (version BETWEEN 1 AND 65535),
        -- 12-byte nonce, 16-byte GCM tag, 32-byte wrapped key.
        wrapped_key bytea NOT NULL CHECK (octet_length(wrapped_key) = 60),
        master_key_id text NOT NULL CHECK (master_key_id ~ '^mk_[0-9a-f]{16}$'),
        created_at timestamptz NOT NULL DEFAULT now(),
        rewrapped_at timestamptz,
        PRIMARY KEY (tenant_id, version)
      )`);
    // The rotation's work list: rows still wrapped by a master key other than the current one.
    await sql(`CREATE INDEX tenant_data_keys_master_key ON cairn.tenant_data_keys (master_key_id)`);
  },
};
