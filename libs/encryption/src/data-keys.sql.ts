/**
 * The statements of DataKeysRepository on `cairn.tenant_data_keys` (control schema). Reads are
 * by primary key; the encryption service caches what they return, so they run once per tenant
 * and key version per cache lifetime, not per value.
 */
export const DATA_KEYS_SQL = {
  /** The version new writes use: the tenant's highest. */
  latest: `SELECT tenant_id, version, wrapped_key, master_key_id
       FROM cairn.tenant_data_keys
       WHERE tenant_id = $1
       ORDER BY version DESC
       LIMIT 1`,
  /** The version an envelope names. */
  byVersion: `SELECT tenant_id, version, wrapped_key, master_key_id
       FROM cairn.tenant_data_keys
       WHERE tenant_id = $1 AND version = $2`,
  /**
   * A new version (of a tenant EnvelopeEncryption found live). Replicas racing to create the same
   * version each insert a key of their own; one row wins, the rest do nothing, and everyone then
   * reads the winner.
   */
  insert: `INSERT INTO cairn.tenant_data_keys (tenant_id, version, wrapped_key, master_key_id)
       VALUES ($1, $2::int, $3::bytea, $4::text)
       ON CONFLICT (tenant_id, version) DO NOTHING`,
  /**
   * Rotation's tenants, in id order from after a cursor, with how many keys each has and how many
   * are current (their slugs and state are @cairn/tenancy's to say).
   */
  tenantsPage: `SELECT k.tenant_id, count(*)::int AS keys, count(*) FILTER (WHERE k.master_key_id = $1)::int AS current
       FROM cairn.tenant_data_keys k
       WHERE k.tenant_id > $2
       GROUP BY k.tenant_id
       ORDER BY k.tenant_id
       LIMIT $3`,
  /** One tenant's keys not wrapped by the current master key, locked for the re-wrap's transaction. */
  toRewrap: `SELECT tenant_id, version, wrapped_key, master_key_id
       FROM cairn.tenant_data_keys
       WHERE tenant_id = $1 AND master_key_id <> $2
       ORDER BY version
       FOR UPDATE`,
  /** Re-wraps one version, only if it is still wrapped by the key it was read with. */
  rewrap: `UPDATE cairn.tenant_data_keys
       SET wrapped_key = $4, master_key_id = $5, rewrapped_at = now()
       WHERE tenant_id = $1 AND version = $2 AND master_key_id = $3`,
  /**
   * The boot check: each master key that wraps stored data keys (the tenants' and the
   * platform's), how many it wraps, and one of them (the lowest tenant id and version; the
   * platform's keys count as the nil uuid's) to try unwrapping. A full scan of two tables of one
   * row per tenant and key version, once per process start.
   */
  masterKeys: `SELECT DISTINCT ON (master_key_id) master_key_id, tenant_id, version, wrapped_key,
              count(*) OVER (PARTITION BY master_key_id)::int AS keys
       FROM (
         SELECT tenant_id, version, wrapped_key, master_key_id FROM cairn.tenant_data_keys
         UNION ALL
         SELECT '00000000-0000-0000-0000-000000000000'::uuid, version, wrapped_key, master_key_id
         FROM cairn.platform_data_keys
       ) k
       ORDER BY master_key_id, tenant_id, version`,
  /** Keys (the tenants' and the platform's) still wrapped by another master key: 0 when a rotation is complete. */
  notWrappedBy: `SELECT ((SELECT count(*) FROM cairn.tenant_data_keys WHERE master_key_id <> $1)
         + (SELECT count(*) FROM cairn.platform_data_keys WHERE master_key_id <> $1))::int AS remaining`,
} as const;

/**
 * The same on `cairn.platform_data_keys`: the installation's own data keys, for values sealed
 * for no tenant (PLATFORM_SCOPE). One row per version; no tenant column.
 */
export const PLATFORM_KEYS_SQL = {
  latest: `SELECT version, wrapped_key, master_key_id
       FROM cairn.platform_data_keys
       ORDER BY version DESC
       LIMIT 1`,
  byVersion: `SELECT version, wrapped_key, master_key_id FROM cairn.platform_data_keys WHERE version = $1`,
  insert: `INSERT INTO cairn.platform_data_keys (version, wrapped_key, master_key_id)
       VALUES ($1::int, $2::bytea, $3::text)
       ON CONFLICT (version) DO NOTHING`,
  /** How many keys there are, and how many the current master key wraps (the rotation's report). */
  summary: `SELECT count(*)::int AS keys, count(*) FILTER (WHERE master_key_id = $1)::int AS current
       FROM cairn.platform_data_keys`,
  toRewrap: `SELECT version, wrapped_key, master_key_id
       FROM cairn.platform_data_keys
       WHERE master_key_id <> $1
       ORDER BY version
       FOR UPDATE`,
  rewrap: `UPDATE cairn.platform_data_keys
       SET wrapped_key = $3, master_key_id = $4, rewrapped_at = now()
       WHERE version = $1 AND master_key_id = $2`,
} as const;
