-- Tenant data keys (control schema), read and written by DataKeysRepository
-- (libs/encryption/src/data-keys.repository.ts) for EnvelopeEncryption and MasterKeyRotation.
-- npm run keys:rotate holds advisory lock (LOCK_NAMESPACE, 2) around the whole run.

-- latest
SELECT tenant_id, version, wrapped_key, master_key_id
       FROM cairn.tenant_data_keys
       WHERE tenant_id = $1
       ORDER BY version DESC
       LIMIT 1;

-- byVersion
SELECT tenant_id, version, wrapped_key, master_key_id
       FROM cairn.tenant_data_keys
       WHERE tenant_id = $1 AND version = $2;

-- insert
INSERT INTO cairn.tenant_data_keys (tenant_id, version, wrapped_key, master_key_id)
       VALUES ($1, $2::int, $3::bytea, $4::text)
       ON CONFLICT (tenant_id, version) DO NOTHING;

-- tenantsPage
SELECT k.tenant_id, count(*)::int AS keys, count(*) FILTER (WHERE k.master_key_id = $1)::int AS current
       FROM cairn.tenant_data_keys k
       WHERE k.tenant_id > $2
       GROUP BY k.tenant_id
       ORDER BY k.tenant_id
       LIMIT $3;

-- toRewrap
SELECT tenant_id, version, wrapped_key, master_key_id
       FROM cairn.tenant_data_keys
       WHERE tenant_id = $1 AND master_key_id <> $2
       ORDER BY version
       FOR UPDATE;

-- rewrap
UPDATE cairn.tenant_data_keys
       SET wrapped_key = $4, master_key_id = $5, rewrapped_at = now()
       WHERE tenant_id = $1 AND version = $2 AND master_key_id = $3;

-- masterKeys
SELECT DISTINCT ON (master_key_id) master_key_id, tenant_id, version, wrapped_key,
              count(*) OVER (PARTITION BY master_key_id)::int AS keys
       FROM cairn.tenant_data_keys
       ORDER BY master_key_id, tenant_id, version;

-- notWrappedBy
SELECT count(*)::int AS remaining FROM cairn.tenant_data_keys WHERE master_key_id <> $1;
