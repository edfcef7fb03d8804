import { Injectable } from '@nestjs/common';
import { ClusterPools, HOME_CLUSTER } from './cluster-pools.service';
import { MEMBER_CLUSTER_DDL } from './migrations/member-cluster';

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
