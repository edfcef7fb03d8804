-- The statements of libs/accounts/src/browser-sessions.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- BrowserSessionsRepository.insert
-- parameters: $1 text, $2 uuid, $3 text, $4 uuid, $5 uuid, $6 boolean, $7 integer,
--   $8 timestamp with time zone, $9 text, $10 text
INSERT INTO cairn.browser_sessions
       (id, account_id, kind, tenant_id, token_id, must_create_account, idle_timeout_seconds, expires_at, user_agent, ip)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
     RETURNING id, account_id, kind, tenant_id, token_id, must_create_account, idle_timeout_seconds, created_at,
last_seen_at, expires_at, revoked_at, user_agent, ip, now() AS now;

-- BrowserSessionsRepository.find
-- parameters: $1 text
SELECT id, account_id, kind, tenant_id, token_id, must_create_account, idle_timeout_seconds, created_at,
last_seen_at, expires_at, revoked_at, user_agent, ip, now() AS now FROM cairn.browser_sessions WHERE id = $1;

-- BrowserSessionsRepository.touch
-- parameters: $1 text, $2 double precision
UPDATE cairn.browser_sessions SET last_seen_at = now()
WHERE id = $1 AND last_seen_at < now() - make_interval(secs => $2);

-- BrowserSessionsRepository.revoke
-- parameters: $1 text
UPDATE cairn.browser_sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL
RETURNING tenant_id, token_id;

-- BrowserSessionsRepository.revokeOfAccount
-- parameters: $1 uuid, $2 text
UPDATE cairn.browser_sessions SET revoked_at = now()
WHERE id = $2 AND account_id = $1 AND revoked_at IS NULL
RETURNING tenant_id, token_id;

-- BrowserSessionsRepository.revokeAllOfAccount
-- parameters: $1 uuid
UPDATE cairn.browser_sessions SET revoked_at = now() WHERE account_id = $1 AND revoked_at IS NULL
RETURNING tenant_id, token_id;

-- BrowserSessionsRepository.listLive
-- parameters: $1 uuid
SELECT id, account_id, kind, tenant_id, token_id, must_create_account, idle_timeout_seconds, created_at,
last_seen_at, expires_at, revoked_at, user_agent, ip, now() AS now FROM cairn.browser_sessions
     WHERE account_id = $1 AND revoked_at IS NULL AND expires_at > now()
       AND last_seen_at + make_interval(secs => idle_timeout_seconds) > now()
     ORDER BY created_at DESC
     LIMIT 100;
