-- The statements of libs/auth/src/users.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- UsersRepository.insert
-- parameters: $1 uuid, $2 uuid, $3 text, $4 text, $5 text, $6 timestamp with time zone
INSERT INTO "cairn"."users"("id", "tenant_id", "email", "name", "role", "disabled_at", "created_at", "updated_at") VALUES ($1, $2, $3, $4, $5, $6, DEFAULT, DEFAULT) RETURNING "created_at", "updated_at";

-- parameters: $1 uuid
SELECT "UserEntity"."id" AS "UserEntity_id", "UserEntity"."tenant_id" AS "UserEntity_tenant_id", "UserEntity"."email" AS "UserEntity_email", "UserEntity"."name" AS "UserEntity_name", "UserEntity"."role" AS "UserEntity_role", "UserEntity"."disabled_at" AS "UserEntity_disabled_at", "UserEntity"."created_at" AS "UserEntity_created_at", "UserEntity"."updated_at" AS "UserEntity_updated_at" FROM "cairn"."users" "UserEntity" WHERE (("UserEntity"."id" = $1)) LIMIT 1;

-- UsersRepository.findInTenant
-- parameters: $1 uuid, $2 uuid
SELECT "UserEntity"."id" AS "UserEntity_id", "UserEntity"."tenant_id" AS "UserEntity_tenant_id", "UserEntity"."email" AS "UserEntity_email", "UserEntity"."name" AS "UserEntity_name", "UserEntity"."role" AS "UserEntity_role", "UserEntity"."disabled_at" AS "UserEntity_disabled_at", "UserEntity"."created_at" AS "UserEntity_created_at", "UserEntity"."updated_at" AS "UserEntity_updated_at" FROM "cairn"."users" "UserEntity" WHERE (("UserEntity"."tenant_id" = $1) AND ("UserEntity"."id" = $2)) LIMIT 1;

-- UsersRepository.findByEmailInTenant
-- parameters: $1 uuid, $2 text
SELECT "u"."id" AS "u_id", "u"."tenant_id" AS "u_tenant_id", "u"."email" AS "u_email", "u"."name" AS "u_name", "u"."role" AS "u_role", "u"."disabled_at" AS "u_disabled_at", "u"."created_at" AS "u_created_at", "u"."updated_at" AS "u_updated_at" FROM "cairn"."users" "u" WHERE "u"."tenant_id" = $1 AND lower("u"."email") = lower($2);

-- UsersRepository.listInTenant (first page)
-- parameters: $1 uuid
SELECT "u"."id" AS "u_id", "u"."tenant_id" AS "u_tenant_id", "u"."email" AS "u_email", "u"."name" AS "u_name", "u"."role" AS "u_role", "u"."disabled_at" AS "u_disabled_at", "u"."created_at" AS "u_created_at", "u"."updated_at" AS "u_updated_at" FROM "cairn"."users" "u" WHERE "u"."tenant_id" = $1 ORDER BY "u"."created_at" ASC, "u"."id" ASC LIMIT 21;

-- UsersRepository.listInTenant (after a user)
-- parameters: $1 uuid, $2 uuid
SELECT "u"."id" AS "u_id", "u"."tenant_id" AS "u_tenant_id", "u"."email" AS "u_email", "u"."name" AS "u_name", "u"."role" AS "u_role", "u"."disabled_at" AS "u_disabled_at", "u"."created_at" AS "u_created_at", "u"."updated_at" AS "u_updated_at" FROM "cairn"."users" "u" WHERE "u"."tenant_id" = $1 AND ("u"."created_at", "u"."id") > (SELECT c.created_at, c.id FROM cairn.users c WHERE c.id = $2) ORDER BY "u"."created_at" ASC, "u"."id" ASC LIMIT 21;

-- UsersRepository.update
-- parameters: $1 text, $2 text, $3 timestamp with time zone, $4 uuid, $5 uuid
UPDATE "cairn"."users" SET "name" = $1, "role" = $2, "disabled_at" = $3, "updated_at" = CURRENT_TIMESTAMP WHERE ("tenant_id" = $4 AND "id" = $5);

-- parameters: $1 uuid, $2 uuid
SELECT "UserEntity"."id" AS "UserEntity_id", "UserEntity"."tenant_id" AS "UserEntity_tenant_id", "UserEntity"."email" AS "UserEntity_email", "UserEntity"."name" AS "UserEntity_name", "UserEntity"."role" AS "UserEntity_role", "UserEntity"."disabled_at" AS "UserEntity_disabled_at", "UserEntity"."created_at" AS "UserEntity_created_at", "UserEntity"."updated_at" AS "UserEntity_updated_at" FROM "cairn"."users" "UserEntity" WHERE (("UserEntity"."tenant_id" = $1) AND ("UserEntity"."id" = $2)) LIMIT 1;

-- UsersRepository.disableAllOfTenant
-- parameters: $1 uuid
WITH disabled AS (UPDATE cairn.users SET disabled_at = now() WHERE tenant_id = $1 AND disabled_at IS NULL
RETURNING 1) SELECT count(*)::int AS n FROM disabled;
