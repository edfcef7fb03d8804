-- The statements of libs/tenancy/src/tenants.repository.ts,
-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a
-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers
-- for them, never values. Generated: `npm run snapshots` rewrites this file.

-- TenantsRepository.provision (the tenant migrations it applies are left out)
BEGIN;

-- parameters: $1 uuid, $2 text, $3 text, $4 text, $5 text
INSERT INTO cairn.tenants (id, slug, name, schema_name, schema_version, cluster) VALUES ($1, $2, $3, $4, 0, $5);

CREATE SCHEMA "t_example_new";

-- parameters: $1 text
SELECT set_config('search_path', $1, true);

-- parameters: $1 uuid
SELECT "TenantEntity"."id" AS "TenantEntity_id", "TenantEntity"."slug" AS "TenantEntity_slug", "TenantEntity"."name" AS "TenantEntity_name", "TenantEntity"."schema_name" AS "TenantEntity_schema_name", "TenantEntity"."schema_version" AS "TenantEntity_schema_version", "TenantEntity"."created_at" AS "TenantEntity_created_at", "TenantEntity"."deleted_at" AS "TenantEntity_deleted_at", "TenantEntity"."cluster" AS "TenantEntity_cluster", "TenantEntity"."moving_to" AS "TenantEntity_moving_to", "TenantEntity"."suspended_at" AS "TenantEntity_suspended_at" FROM "cairn"."tenants" "TenantEntity" WHERE (("TenantEntity"."id" = $1)) LIMIT 1;

COMMIT;

-- TenantsRepository.findLiveBySlug
-- parameters: $1 text
SELECT "t"."id" AS "t_id", "t"."slug" AS "t_slug", "t"."name" AS "t_name", "t"."schema_name" AS "t_schema_name", "t"."schema_version" AS "t_schema_version", "t"."created_at" AS "t_created_at", "t"."deleted_at" AS "t_deleted_at", "t"."cluster" AS "t_cluster", "t"."moving_to" AS "t_moving_to", "t"."suspended_at" AS "t_suspended_at" FROM "cairn"."tenants" "t" WHERE "t"."deleted_at" IS NULL AND "t"."slug" = $1;

-- TenantsRepository.findLiveById
-- parameters: $1 uuid
SELECT "t"."id" AS "t_id", "t"."slug" AS "t_slug", "t"."name" AS "t_name", "t"."schema_name" AS "t_schema_name", "t"."schema_version" AS "t_schema_version", "t"."created_at" AS "t_created_at", "t"."deleted_at" AS "t_deleted_at", "t"."cluster" AS "t_cluster", "t"."moving_to" AS "t_moving_to", "t"."suspended_at" AS "t_suspended_at" FROM "cairn"."tenants" "t" WHERE "t"."deleted_at" IS NULL AND "t"."id" = $1;

-- TenantsRepository.setSuspended
-- parameters: $1 uuid, $2 boolean
UPDATE cairn.tenants SET suspended_at = CASE WHEN $2::boolean THEN coalesce(suspended_at, now()) END
WHERE id = $1 AND deleted_at IS NULL;

-- parameters: $1 uuid
SELECT "t"."id" AS "t_id", "t"."slug" AS "t_slug", "t"."name" AS "t_name", "t"."schema_name" AS "t_schema_name", "t"."schema_version" AS "t_schema_version", "t"."created_at" AS "t_created_at", "t"."deleted_at" AS "t_deleted_at", "t"."cluster" AS "t_cluster", "t"."moving_to" AS "t_moving_to", "t"."suspended_at" AS "t_suspended_at" FROM "cairn"."tenants" "t" WHERE "t"."deleted_at" IS NULL AND "t"."id" = $1;

-- TenantsRepository.findManyById
-- parameters: $1 uuid, $2 uuid
SELECT "t"."id" AS "t_id", "t"."slug" AS "t_slug", "t"."name" AS "t_name", "t"."schema_name" AS "t_schema_name", "t"."schema_version" AS "t_schema_version", "t"."created_at" AS "t_created_at", "t"."deleted_at" AS "t_deleted_at", "t"."cluster" AS "t_cluster", "t"."moving_to" AS "t_moving_to", "t"."suspended_at" AS "t_suspended_at" FROM "cairn"."tenants" "t" WHERE "t"."id" IN ($1, $2);

-- TenantsRepository.listLive (first page)
SELECT "t"."id" AS "t_id", "t"."slug" AS "t_slug", "t"."name" AS "t_name", "t"."schema_name" AS "t_schema_name", "t"."schema_version" AS "t_schema_version", "t"."created_at" AS "t_created_at", "t"."deleted_at" AS "t_deleted_at", "t"."cluster" AS "t_cluster", "t"."moving_to" AS "t_moving_to", "t"."suspended_at" AS "t_suspended_at" FROM "cairn"."tenants" "t" WHERE "t"."deleted_at" IS NULL ORDER BY "t"."created_at" ASC, "t"."id" ASC LIMIT 21;

-- TenantsRepository.listLive (after a tenant)
-- parameters: $1 uuid
SELECT "t"."id" AS "t_id", "t"."slug" AS "t_slug", "t"."name" AS "t_name", "t"."schema_name" AS "t_schema_name", "t"."schema_version" AS "t_schema_version", "t"."created_at" AS "t_created_at", "t"."deleted_at" AS "t_deleted_at", "t"."cluster" AS "t_cluster", "t"."moving_to" AS "t_moving_to", "t"."suspended_at" AS "t_suspended_at" FROM "cairn"."tenants" "t" WHERE "t"."deleted_at" IS NULL AND ("t"."created_at", "t"."id") > (SELECT c.created_at, c.id FROM cairn.tenants c WHERE c.id = $1) ORDER BY "t"."created_at" ASC, "t"."id" ASC LIMIT 21;

-- TenantsRepository.softDelete (the deletion steps other libraries register are left out)
BEGIN;

-- parameters: $1 uuid
UPDATE cairn.tenants SET deleted_at = now() WHERE id = $1;

-- parameters: $1 name
SELECT c.relname AS table,
      (xpath('/row/n/text()', query_to_xml(format('SELECT count(*) AS n FROM %I.%I', n.nspname, c.relname),
        false, true, '')))[1]::text AS rows
 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition
ORDER BY c.relname;

DROP SCHEMA IF EXISTS "t_example" CASCADE;

COMMIT;
