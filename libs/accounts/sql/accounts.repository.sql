-- The statements of libs/accounts/src/accounts.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- AccountsRepository.ensureForUser
-- parameters: $1 uuid, $2 uuid, $3 uuid
INSERT INTO cairn.accounts (id, tenant_id, user_id) VALUES ($1, $2, $3)
ON CONFLICT (user_id) DO UPDATE SET updated_at = cairn.accounts.updated_at
RETURNING id, tenant_id, user_id, email, name, password_hash, totp_secret, totp_pending, disabled_at;

-- AccountsRepository.insertPlatform
-- parameters: $1 uuid, $2 text, $3 text, $4 text
INSERT INTO cairn.accounts (id, email, name, password_hash) VALUES ($1, $2, $3, $4) RETURNING id, tenant_id, user_id, email, name, password_hash, totp_secret, totp_pending, disabled_at;

-- AccountsRepository.findById
-- parameters: $1 uuid
SELECT id, tenant_id, user_id, email, name, password_hash, totp_secret, totp_pending, disabled_at FROM cairn.accounts WHERE id = $1;

-- AccountsRepository.findByUserId
-- parameters: $1 uuid
SELECT id, tenant_id, user_id, email, name, password_hash, totp_secret, totp_pending, disabled_at FROM cairn.accounts WHERE user_id = $1;

-- AccountsRepository.findPlatformByEmail
-- parameters: $1 text
SELECT id, tenant_id, user_id, email, name, password_hash, totp_secret, totp_pending, disabled_at FROM cairn.accounts WHERE user_id IS NULL AND lower(email) = lower($1);

-- AccountsRepository.setPassword
-- parameters: $1 uuid, $2 text
UPDATE cairn.accounts SET password_hash = $2, updated_at = now() WHERE id = $1;

-- AccountsRepository.setPendingTotp
-- parameters: $1 uuid, $2 bytea
UPDATE cairn.accounts SET totp_pending = $2, updated_at = now() WHERE id = $1;

-- AccountsRepository.enableTotp
-- parameters: $1 uuid, $2 bigint
UPDATE cairn.accounts SET totp_secret = totp_pending, totp_pending = NULL, totp_last_step = $2, updated_at = now()
WHERE id = $1 AND totp_pending IS NOT NULL RETURNING id;

-- AccountsRepository.disableTotp
-- parameters: $1 uuid
UPDATE cairn.accounts SET totp_secret = NULL, totp_pending = NULL, totp_last_step = NULL, updated_at = now()
WHERE id = $1;

-- AccountsRepository.spendTotpStep
-- parameters: $1 uuid, $2 bigint
UPDATE cairn.accounts SET totp_last_step = $2
WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id;

-- AccountsRepository.listPlatform
-- parameters: $1 bigint, $2 uuid
SELECT id, tenant_id, user_id, email, name, password_hash, totp_secret, totp_pending, disabled_at, created_at FROM cairn.accounts a
WHERE a.user_id IS NULL
  AND ($2::uuid IS NULL OR (a.created_at, a.id) > (SELECT c.created_at, c.id FROM cairn.accounts c WHERE c.id = $2))
ORDER BY a.created_at, a.id
LIMIT $1;

-- AccountsRepository.disablePlatform
BEGIN;

SELECT id FROM cairn.accounts WHERE user_id IS NULL AND disabled_at IS NULL ORDER BY id FOR UPDATE;

-- parameters: $1 uuid
UPDATE cairn.accounts
SET disabled_at = coalesce(disabled_at, now()),
    updated_at = CASE WHEN disabled_at IS NULL THEN now() ELSE updated_at END
WHERE id = $1 AND user_id IS NULL
RETURNING id, tenant_id, user_id, email, name, password_hash, totp_secret, totp_pending, disabled_at, created_at;

COMMIT;

-- AccountsRepository.enablePlatform
-- parameters: $1 uuid
UPDATE cairn.accounts
SET disabled_at = NULL, updated_at = CASE WHEN disabled_at IS NULL THEN updated_at ELSE now() END
WHERE id = $1 AND user_id IS NULL
RETURNING id, tenant_id, user_id, email, name, password_hash, totp_secret, totp_pending, disabled_at, created_at;
