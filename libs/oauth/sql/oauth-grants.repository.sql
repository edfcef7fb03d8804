-- The statements of libs/oauth/src/oauth-grants.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- OAuthGrantsRepository.insert
-- parameters: $1 text, $2 uuid, $3 uuid, $4 uuid, $5 text, $6 text, $7 text, $8 text, $9 text[],
--   $10 timestamp with time zone
INSERT INTO cairn.oauth_grants
  (id, tenant_id, user_id, token_id, client_id, client_name, client_uri, role, project_scope, expires_at)
VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10);

-- OAuthGrantsRepository.accessTokenWithGrant
-- parameters: $1 text
SELECT r.payload, g.id IS NOT NULL AS grant_live, g.id, g.tenant_id, g.user_id, g.token_id, g.client_id, g.client_name, g.client_uri, g.role, g.project_scope, g.created_at,
g.expires_at, g.revoked_at
     FROM cairn.oauth_records r
     LEFT JOIN cairn.oauth_grants g ON g.id = r.grant_id AND g.revoked_at IS NULL AND g.expires_at > now()
     WHERE r.kind = 'AccessToken' AND r.id = $1 AND (r.expires_at IS NULL OR r.expires_at > now());

-- OAuthGrantsRepository.findLive
-- parameters: $1 text
SELECT id, tenant_id, user_id, token_id, client_id, client_name, client_uri, role, project_scope, created_at,
expires_at, revoked_at FROM cairn.oauth_grants WHERE id = $1 AND revoked_at IS NULL AND expires_at > now();

-- OAuthGrantsRepository.list (tenant)
-- parameters: $1 uuid, $2 uuid, $3 bigint
SELECT id, tenant_id, user_id, token_id, client_id, client_name, client_uri, role, project_scope, created_at,
expires_at, revoked_at FROM cairn.oauth_grants
     WHERE tenant_id = $1 AND ($2::uuid IS NULL OR user_id = $2)
       AND (revoked_at IS NULL OR revoked_at > now() - interval '30 days')
     ORDER BY created_at DESC, id LIMIT $3;

-- OAuthGrantsRepository.list (user)
-- parameters: $1 uuid, $2 uuid, $3 bigint
SELECT id, tenant_id, user_id, token_id, client_id, client_name, client_uri, role, project_scope, created_at,
expires_at, revoked_at FROM cairn.oauth_grants
     WHERE tenant_id = $1 AND ($2::uuid IS NULL OR user_id = $2)
       AND (revoked_at IS NULL OR revoked_at > now() - interval '30 days')
     ORDER BY created_at DESC, id LIMIT $3;

-- OAuthGrantsRepository.revoke
-- parameters: $1 uuid, $2 text, $3 uuid
UPDATE cairn.oauth_grants SET revoked_at = now()
     WHERE tenant_id = $1 AND id = $2 AND ($3::uuid IS NULL OR user_id = $3) AND revoked_at IS NULL
     RETURNING id, tenant_id, user_id, token_id, client_id, client_name, client_uri, role, project_scope, created_at,
expires_at, revoked_at;

-- OAuthGrantsRepository.revokeById
-- parameters: $1 text
UPDATE cairn.oauth_grants SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id, tenant_id, user_id, token_id, client_id, client_name, client_uri, role, project_scope, created_at,
expires_at, revoked_at;

-- OAuthGrantsRepository.exists
-- parameters: $1 uuid, $2 text, $3 uuid
SELECT 1 FROM cairn.oauth_grants WHERE tenant_id = $1 AND id = $2 AND ($3::uuid IS NULL OR user_id = $3);
