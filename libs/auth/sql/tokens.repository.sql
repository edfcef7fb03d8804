-- The statements of libs/auth/src/tokens.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- TokensRepository.insert
-- parameters: $1 uuid, $2 uuid, $3 uuid, $4 text, $5 text, $6 text[], $7 text[], $8 text, $9 text, $10 bytea,
--   $11 text, $12 text, $13 timestamp with time zone, $14 timestamp with time zone,
--   $15 timestamp with time zone
INSERT INTO "cairn"."session_tokens"("id", "tenant_id", "user_id", "agent_id", "role", "projects", "toolsets", "default_project", "label", "token_hash", "hint", "created_by", "created_at", "expires_at", "revoked_at", "last_used_at") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, DEFAULT, $13, $14, $15) RETURNING "created_at";

-- parameters: $1 uuid
SELECT "SessionTokenEntity"."id" AS "SessionTokenEntity_id", "SessionTokenEntity"."tenant_id" AS "SessionTokenEntity_tenant_id", "SessionTokenEntity"."user_id" AS "SessionTokenEntity_user_id", "SessionTokenEntity"."agent_id" AS "SessionTokenEntity_agent_id", "SessionTokenEntity"."role" AS "SessionTokenEntity_role", "SessionTokenEntity"."projects" AS "SessionTokenEntity_projects", "SessionTokenEntity"."toolsets" AS "SessionTokenEntity_toolsets", "SessionTokenEntity"."default_project" AS "SessionTokenEntity_default_project", "SessionTokenEntity"."label" AS "SessionTokenEntity_label", "SessionTokenEntity"."hint" AS "SessionTokenEntity_hint", "SessionTokenEntity"."created_by" AS "SessionTokenEntity_created_by", "SessionTokenEntity"."created_at" AS "SessionTokenEntity_created_at", "SessionTokenEntity"."expires_at" AS "SessionTokenEntity_expires_at", "SessionTokenEntity"."revoked_at" AS "SessionTokenEntity_revoked_at", "SessionTokenEntity"."last_used_at" AS "SessionTokenEntity_last_used_at" FROM "cairn"."session_tokens" "SessionTokenEntity" WHERE (("SessionTokenEntity"."id" = $1)) LIMIT 1;

-- TokensRepository.lookup
-- prepared statement cairn_token_lookup_v3
-- parameters: $1 bytea
SELECT t.id, t.tenant_id, t.user_id, u.role AS user_role,
       coalesce(u.disabled_at IS NOT NULL, false) AS user_disabled, t.agent_id, t.role, t.projects,
       t.toolsets, t.default_project,
       t.created_at, t.expires_at, t.revoked_at
FROM cairn.session_tokens t
LEFT JOIN cairn.users u ON u.id = t.user_id
WHERE t.token_hash = $1;

-- TokensRepository.lookupById
-- prepared statement cairn_token_lookup_by_id_v1
-- parameters: $1 uuid
SELECT t.id, t.tenant_id, t.user_id, u.role AS user_role,
       coalesce(u.disabled_at IS NOT NULL, false) AS user_disabled, t.agent_id, t.role, t.projects,
       t.toolsets, t.default_project,
       t.created_at, t.expires_at, t.revoked_at
FROM cairn.session_tokens t
LEFT JOIN cairn.users u ON u.id = t.user_id
WHERE t.id = $1;

-- TokensRepository.touch
-- parameters: $1 uuid
UPDATE cairn.session_tokens SET last_used_at = now()
WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '60 seconds');

-- TokensRepository.listInTenant (first page)
-- parameters: $1 uuid
SELECT "t"."id" AS "t_id", "t"."tenant_id" AS "t_tenant_id", "t"."user_id" AS "t_user_id", "t"."agent_id" AS "t_agent_id", "t"."role" AS "t_role", "t"."projects" AS "t_projects", "t"."toolsets" AS "t_toolsets", "t"."default_project" AS "t_default_project", "t"."label" AS "t_label", "t"."hint" AS "t_hint", "t"."created_by" AS "t_created_by", "t"."created_at" AS "t_created_at", "t"."expires_at" AS "t_expires_at", "t"."revoked_at" AS "t_revoked_at", "t"."last_used_at" AS "t_last_used_at" FROM "cairn"."session_tokens" "t" WHERE "t"."tenant_id" = $1 ORDER BY "t"."created_at" DESC, "t"."id" DESC LIMIT 21;

-- TokensRepository.listInTenant (after a token)
-- parameters: $1 uuid, $2 uuid
SELECT "t"."id" AS "t_id", "t"."tenant_id" AS "t_tenant_id", "t"."user_id" AS "t_user_id", "t"."agent_id" AS "t_agent_id", "t"."role" AS "t_role", "t"."projects" AS "t_projects", "t"."toolsets" AS "t_toolsets", "t"."default_project" AS "t_default_project", "t"."label" AS "t_label", "t"."hint" AS "t_hint", "t"."created_by" AS "t_created_by", "t"."created_at" AS "t_created_at", "t"."expires_at" AS "t_expires_at", "t"."revoked_at" AS "t_revoked_at", "t"."last_used_at" AS "t_last_used_at" FROM "cairn"."session_tokens" "t" WHERE "t"."tenant_id" = $1 AND ("t"."created_at", "t"."id") < (SELECT c.created_at, c.id FROM cairn.session_tokens c WHERE c.id = $2) ORDER BY "t"."created_at" DESC, "t"."id" DESC LIMIT 21;

-- TokensRepository.findInTenant
-- parameters: $1 uuid, $2 uuid
SELECT "SessionTokenEntity"."id" AS "SessionTokenEntity_id", "SessionTokenEntity"."tenant_id" AS "SessionTokenEntity_tenant_id", "SessionTokenEntity"."user_id" AS "SessionTokenEntity_user_id", "SessionTokenEntity"."agent_id" AS "SessionTokenEntity_agent_id", "SessionTokenEntity"."role" AS "SessionTokenEntity_role", "SessionTokenEntity"."projects" AS "SessionTokenEntity_projects", "SessionTokenEntity"."toolsets" AS "SessionTokenEntity_toolsets", "SessionTokenEntity"."default_project" AS "SessionTokenEntity_default_project", "SessionTokenEntity"."label" AS "SessionTokenEntity_label", "SessionTokenEntity"."hint" AS "SessionTokenEntity_hint", "SessionTokenEntity"."created_by" AS "SessionTokenEntity_created_by", "SessionTokenEntity"."created_at" AS "SessionTokenEntity_created_at", "SessionTokenEntity"."expires_at" AS "SessionTokenEntity_expires_at", "SessionTokenEntity"."revoked_at" AS "SessionTokenEntity_revoked_at", "SessionTokenEntity"."last_used_at" AS "SessionTokenEntity_last_used_at" FROM "cairn"."session_tokens" "SessionTokenEntity" WHERE (("SessionTokenEntity"."tenant_id" = $1) AND ("SessionTokenEntity"."id" = $2)) LIMIT 1;

-- TokensRepository.revoke
-- parameters: $1 uuid, $2 uuid
UPDATE cairn.session_tokens SET revoked_at = now() WHERE tenant_id = $1 AND id = $2 AND revoked_at IS NULL;

-- TokensRepository.revokeAllOfTenant
-- parameters: $1 uuid
WITH revoked AS (UPDATE cairn.session_tokens SET revoked_at = now() WHERE tenant_id = $1 AND revoked_at IS NULL
RETURNING 1) SELECT count(*)::int AS n FROM revoked;
