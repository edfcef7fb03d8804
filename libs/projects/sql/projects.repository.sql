-- The statements of libs/projects/src/projects.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- ProjectsRepository.insert
SAVEPOINT project_insert;

-- parameters: $1 uuid, $2 text, $3 text, $4 jsonb
INSERT INTO "projects"("id", "slug", "name", "card", "last_seen_at", "created_at", "updated_at") VALUES ($1, $2, $3, $4, DEFAULT, DEFAULT, DEFAULT) RETURNING "created_at", "updated_at";

RELEASE SAVEPOINT project_insert;

-- parameters: $1 uuid
SELECT "ProjectEntity"."id" AS "ProjectEntity_id", "ProjectEntity"."slug" AS "ProjectEntity_slug", "ProjectEntity"."name" AS "ProjectEntity_name", "ProjectEntity"."card" AS "ProjectEntity_card", "ProjectEntity"."last_seen_at" AS "ProjectEntity_last_seen_at", "ProjectEntity"."created_at" AS "ProjectEntity_created_at", "ProjectEntity"."updated_at" AS "ProjectEntity_updated_at" FROM "projects" "ProjectEntity" WHERE (("ProjectEntity"."id" = $1)) LIMIT 1;

-- ProjectsRepository.list (every project)
SELECT "ProjectEntity"."id" AS "ProjectEntity_id", "ProjectEntity"."slug" AS "ProjectEntity_slug", "ProjectEntity"."name" AS "ProjectEntity_name", "ProjectEntity"."card" AS "ProjectEntity_card", "ProjectEntity"."last_seen_at" AS "ProjectEntity_last_seen_at", "ProjectEntity"."created_at" AS "ProjectEntity_created_at", "ProjectEntity"."updated_at" AS "ProjectEntity_updated_at" FROM "projects" "ProjectEntity" ORDER BY "ProjectEntity"."slug" ASC;

-- ProjectsRepository.list (by slug)
-- parameters: $1 text, $2 text
SELECT "ProjectEntity"."id" AS "ProjectEntity_id", "ProjectEntity"."slug" AS "ProjectEntity_slug", "ProjectEntity"."name" AS "ProjectEntity_name", "ProjectEntity"."card" AS "ProjectEntity_card", "ProjectEntity"."last_seen_at" AS "ProjectEntity_last_seen_at", "ProjectEntity"."created_at" AS "ProjectEntity_created_at", "ProjectEntity"."updated_at" AS "ProjectEntity_updated_at" FROM "projects" "ProjectEntity" WHERE (("ProjectEntity"."slug" IN ($1, $2))) ORDER BY "ProjectEntity"."slug" ASC;

-- ProjectsRepository.findBySlug
-- parameters: $1 text
SELECT "ProjectEntity"."id" AS "ProjectEntity_id", "ProjectEntity"."slug" AS "ProjectEntity_slug", "ProjectEntity"."name" AS "ProjectEntity_name", "ProjectEntity"."card" AS "ProjectEntity_card", "ProjectEntity"."last_seen_at" AS "ProjectEntity_last_seen_at", "ProjectEntity"."created_at" AS "ProjectEntity_created_at", "ProjectEntity"."updated_at" AS "ProjectEntity_updated_at" FROM "projects" "ProjectEntity" WHERE (("ProjectEntity"."slug" = $1)) LIMIT 1;

-- ProjectsRepository.existingSlugs
-- parameters: $1 text, $2 text
SELECT "ProjectEntity"."slug" AS "ProjectEntity_slug", "ProjectEntity"."id" AS "ProjectEntity_id" FROM "projects" "ProjectEntity" WHERE (("ProjectEntity"."slug" IN ($1, $2)));

-- ProjectsRepository.lastSeenAt
-- parameters: $1 uuid
SELECT last_seen_at AS at FROM projects WHERE id = $1;

-- ProjectsRepository.recordVisit
-- parameters: $1 uuid, $2 timestamp with time zone
UPDATE projects SET last_seen_at = $2 WHERE id = $1;

-- ProjectsRepository.slugsOf
-- parameters: $1 uuid[]
SELECT id, slug FROM projects WHERE id = ANY($1::uuid[]);
