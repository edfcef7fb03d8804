-- The statements of libs/oauth/src/oauth-records.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- OAuthRecordsRepository.upsert
-- parameters: $1 text, $2 text, $3 jsonb, $4 text, $5 text, $6 text, $7 integer
INSERT INTO cairn.oauth_records (kind, id, payload, grant_id, uid, user_code, expires_at)
VALUES ($1, $2, $3, $4, $5, $6, CASE WHEN $7::integer IS NULL THEN NULL ELSE now() + make_interval(secs => $7::integer) END)
ON CONFLICT (kind, id) DO UPDATE SET payload = EXCLUDED.payload, grant_id = EXCLUDED.grant_id,
  uid = EXCLUDED.uid, user_code = EXCLUDED.user_code, expires_at = EXCLUDED.expires_at;

-- OAuthRecordsRepository.find
-- parameters: $1 text, $2 text
SELECT payload, expires_at, consumed_at FROM cairn.oauth_records WHERE kind = $1 AND id = $2 AND (expires_at IS NULL OR expires_at > now());

-- OAuthRecordsRepository.findByUid
-- parameters: $1 text, $2 text
SELECT payload, expires_at, consumed_at FROM cairn.oauth_records WHERE kind = $1 AND uid = $2 AND (expires_at IS NULL OR expires_at > now());

-- OAuthRecordsRepository.findByUserCode
-- parameters: $1 text, $2 text
SELECT payload, expires_at, consumed_at FROM cairn.oauth_records WHERE kind = $1 AND user_code = $2 AND (expires_at IS NULL OR expires_at > now());

-- OAuthRecordsRepository.consume
-- parameters: $1 text, $2 text
UPDATE cairn.oauth_records SET consumed_at = now() WHERE kind = $1 AND id = $2 AND consumed_at IS NULL;

-- OAuthRecordsRepository.destroy
-- parameters: $1 text, $2 text
DELETE FROM cairn.oauth_records WHERE kind = $1 AND id = $2;

-- OAuthRecordsRepository.destroyByGrantId
-- parameters: $1 text
DELETE FROM cairn.oauth_records WHERE grant_id = $1;

-- OAuthRecordsRepository.deleteExpired
-- parameters: $1 bigint
DELETE FROM cairn.oauth_records WHERE ctid IN (
  SELECT ctid FROM cairn.oauth_records WHERE expires_at < now() - interval '1 day' LIMIT $1)
RETURNING id;
