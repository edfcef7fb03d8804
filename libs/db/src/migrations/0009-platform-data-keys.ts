import { type Migration } from '../migration.types';

/**
 * The installation's own data keys (@cairn/encryption), beside the tenants' (0003): what is
 * sealed for no tenant, such as a platform-operator account's TOTP secret (@cairn/accounts,
 * docs/sign-in.md), is sealed under them. The same shape and rules as `tenant_data_keys`: a row
 * per version, wrapped by the master key it names, re-wrapped by `npm run keys:rotate` and
 * checked by the start-up check like the tenants' keys.
 */
export const platformDataKeys: Migration = {
  version: 9,
  name: 'platform-data-keys',
  async up(sql) {
    await sql(`
      CREATE TABLE cairn.platform_data_keys (
        version integer PRIMARY KEY CHECK (version BETWEEN 1 AND 65535),
        -- 12-byte nonce, 16-byte GCM tag, 32-byte wrapped key.
        wrapped_key bytea NOT NULL CHECK (octet_length(wrapped_key) = 60),
        master_key_id text NOT NULL CHECK (master_key_id ~ '^mk_[0-9a-f]{16}$'),
        created_at timestamptz NOT NULL DEFAULT now(),
        rewrapped_at timestamptz
      )`);
  },
};
