-- The statements of libs/accounts/src/oidc-identities.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- OidcIdentitiesRepository.signIn
-- parameters: $1 text, $2 text, $3 uuid
UPDATE cairn.oidc_identities SET last_sign_in_at = now()
WHERE provider = $1 AND subject = $2 AND tenant_id = $3 RETURNING account_id;

-- OidcIdentitiesRepository.link
-- parameters: $1 text, $2 text, $3 uuid, $4 uuid
INSERT INTO cairn.oidc_identities (provider, subject, tenant_id, account_id) VALUES ($1, $2, $3, $4)
ON CONFLICT (provider, subject, tenant_id) DO UPDATE SET last_sign_in_at = now()
RETURNING account_id = $4 AS same;
