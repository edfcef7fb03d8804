import { Injectable } from '@nestjs/common';
import { ClusterPools, HOME_CLUSTER } from './cluster-pools.service';

/**
 * What a member cluster (DATABASE_CLUSTERS) needs besides its tenants' schemas: the extensions
 * tenant schemas use from `public`, and the cluster-local part of the control schema, the audit
 * outbox, which a tool call writes in its own tenant transaction (so it must be on the tenant's
 * cluster). Everything else of the control schema stays on home. Idempotent; `npm run migrate`
 * runs it every time after the control migrations.
 */
@Injectable()
export class MemberClusterMigrator {
  constructor(private readonly pools: ClusterPools) {}

  /** The members prepared, in order. */
  async migrate(): Promise<string[]> {
    const done: string[] = [];
    for (const name of this.pools.names().filter((n) => n !== HOME_CLUSTER)) {
      const dataSource = await this.pools.dataSource(name);
      await dataSource.transaction(async (manager) => {
        for (const statement of MEMBER_CLUSTER_DDL) await manager.query(statement);
      });
      done.push(name);
    }
    return done;
  }
}

/** Control migrations 0001 (vector), 0011 (pg_trgm) and 0005 (the outbox, without its foreign key to home's tenants). */
const MEMBER_CLUSTER_DDL = [
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
