-- The statements of libs/accounts/src/password-links.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- PasswordLinksRepository.replace
-- parameters: $1 uuid, $2 uuid, $3 bytea, $4 text, $5 timestamp with time zone
WITH voided AS (
  UPDATE cairn.password_links SET used_at = now() WHERE account_id = $2 AND used_at IS NULL
)
INSERT INTO cairn.password_links (id, account_id, token_hash, created_by, expires_at)
VALUES ($1, $2, $3, $4, $5);

-- PasswordLinksRepository.consume
-- parameters: $1 bytea
UPDATE cairn.password_links SET used_at = now()
WHERE token_hash = $1 AND used_at IS NULL AND expires_at > now()
RETURNING account_id;
