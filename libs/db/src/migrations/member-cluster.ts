/**
 * What a member cluster of DATABASE_CLUSTERS needs besides its tenants' schemas (docs/scaling.md),
 * applied by MemberClusterMigrator on every `npm run migrate` (idempotent, not versioned): control
 * migrations 0001 (vector) and 0011 (pg_trgm), and 0005's audit outbox without its foreign key to
 * home's tenants, since a tool call writes its outbox row in its own tenant transaction, on the
 * tenant's cluster. Keep it in step with those migrations.
 */
export const MEMBER_CLUSTER_DDL = [
  `CREATE EXTENSION IF NOT EXISTS vector WITH SCHEMA public`,
  `CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public`,
  `CREATE SCHEMA IF NOT EXISTS cairn`,
  `CREATE TABLE IF NOT EXISTS cairn.audit_outbox (
     id uuid PRIMARY KEY,
     tenant_id uuid NOT NULL,
     tenant_schema text NOT NULL,
     entry jsonb NOT NULL,
     created_at timestamptz NOT NULL DEFAULT clock_timestamp()
   )`,
  `CREATE INDEX IF NOT EXISTS audit_outbox_created ON cairn.audit_outbox (created_at)`,
] as const;
