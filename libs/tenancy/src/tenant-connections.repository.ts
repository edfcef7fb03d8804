import { Inject, Injectable } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import {
  type AdvisoryLockTarget,
  ClusterPools,
  HOME_CLUSTER,
  NoSqlSnapshot,
  SNAPSHOT_EXAMPLE as EX,
  SqlSnapshot,
} from '@cairn/db';
import { type DataSource, type EntityManager } from 'typeorm';
import { TENANT_CONNECTIONS_SQL, transactionOpeningSql } from './tenant-connections.sql';
import { schemaNameFor, tenantIdFromSchema, tenantSearchPath } from './tenant-ref';
import { TenantMovingError, TenantPlacement } from './tenant-placement.service';

/** What a transaction on a tenant's cluster needs: whose, and the schema it reaches. */
export interface TenantTarget {
  readonly id: string;
  readonly schema: string;
}

/** The example tenant of the SQL snapshots, as a transaction's target. */
const EXAMPLE_TARGET: TenantTarget = { id: EX.tenantId, schema: schemaNameFor(EX.tenantId) };
/** Work that sends nothing, so an example shows only what TenantConnections sends around it. */
const NO_WORK = () => Promise.resolve();

/**
 * The connections to a tenant's data, on whichever cluster it is placed (docs/scaling.md).
 * TenantTransaction opens its transactions here, and so do the few repositories that reach a
 * tenant's schema by qualified names outside one (the audit chain, index builds, VACUUM), so a
 * move's write freeze covers them all: with placement on, every transaction first takes the
 * tenant's move lock shared, without waiting (TenantMover holds it exclusively while it copies):
 * one that cannot, or that finds the schema moved away, answers 503 tenant_moving at once.
 * A repository, because it is the database layer's door to a tenant's cluster: it hands out
 * connections and sends the statements that open a tenant transaction (DESIGN §11.3).
 */
@Injectable()
export class TenantConnections {
  /** The tenant schemas each pooled connection (pg client) has worked in; see transactionOn. */
  private readonly schemasOf = new WeakMap<object, Set<string>>();

  constructor(
    private readonly pools: ClusterPools,
    private readonly placement: TenantPlacement,
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
  ) {}

  /** The data source of the cluster the tenant lives on, for statements that cannot run in a transaction. */
  @NoSqlSnapshot('hands out a data source; the statements run on it show under the repositories that send them')
  async dataSource(tenant: TenantTarget): Promise<DataSource> {
    return this.pools.dataSource(await this.placement.clusterOf(tenant.id));
  }

  /** `dataSource`, for callers that hold only the schema name. */
  @NoSqlSnapshot('hands out a data source; the statements run on it show under the repositories that send them')
  dataSourceOfSchema(schema: string): Promise<DataSource> {
    return this.dataSource({ id: tenantIdFromSchema(schema), schema });
  }

  /**
   * Where a maintenance statement on the schema (an index build, a VACUUM) runs: the tenant's
   * cluster, with how it is reached. DATABASE_POOLER and DATABASE_DIRECT_URL describe the home
   * cluster's connection; member clusters (DATABASE_CLUSTERS) are connected to directly.
   */
  @NoSqlSnapshot('hands out a data source; the statements run on it show under the repositories that send them')
  async maintenanceTarget(schema: string): Promise<AdvisoryLockTarget> {
    const cluster = await this.placement.clusterOf(tenantIdFromSchema(schema));
    const dataSource = await this.pools.dataSource(cluster);
    if (cluster === HOME_CLUSTER) return { dataSource, database: this.config.database };
    const direct = { pooler: 'none' as const, directUrl: undefined, sessionUrl: undefined, preparedStatements: true };
    return { dataSource, database: { ...this.config.database, ...direct } };
  }

  /**
   * Runs `work` in a transaction on the tenant's cluster. `settings` are transaction-local GUCs
   * set in the first statement, with the move lock when placement is on (one round trip). The
   * snapshot database has no member clusters, so the examples show the statement without the
   * lock; libs/tenancy/sql/tenant-transaction-opening.sql shows every shape of it.
   */
  @SqlSnapshot(
    {
      name: "the tenant's search path, as TenantTransaction opens every transaction",
      params: [EXAMPLE_TARGET, NO_WORK, [['search_path', tenantSearchPath(EXAMPLE_TARGET.schema)]]],
    },
    {
      name: "with a semantic recall's settings",
      params: [
        EXAMPLE_TARGET,
        NO_WORK,
        [
          ['search_path', tenantSearchPath(EXAMPLE_TARGET.schema)],
          ['hnsw.iterative_scan', 'relaxed_order'],
          ['hnsw.ef_search', '40'],
        ],
      ],
    },
  )
  async transaction<T>(
    tenant: TenantTarget,
    work: (manager: EntityManager) => Promise<T>,
    settings: readonly (readonly [string, string])[] = [],
  ): Promise<T> {
    const cluster = await this.placement.clusterOf(tenant.id);
    const dataSource = await this.pools.dataSource(cluster);
    try {
      return await this.transactionOn(dataSource, cluster, tenant.schema, async (manager) => {
        const lock = this.placement.enabled ? [moveLockKey(tenant.id)] : [];
        if (lock.length + settings.length > 0) {
          const [first] = await manager.query<{ unfrozen?: boolean }[]>(
            transactionOpeningSql(lock.length > 0, settings.length),
            [...lock, ...settings.flat()],
          );
          // Frozen by a move: answer at once rather than wait holding one of the cluster's pooled
          // connections (waiters would starve the cluster's other tenants, and the move itself).
          if (lock.length > 0 && first?.unfrozen !== true) {
            this.placement.forget(tenant.id);
            throw new TenantMovingError();
          }
        }
        return work(manager);
      });
    } catch (error) {
      if (this.placement.enabled && (await this.movedAway(tenant, cluster, dataSource, error))) {
        throw new TenantMovingError();
      }
      throw error;
    }
  }

  /**
   * TypeORM's `transaction`, plus the bound on what one connection may cache: the schemas each
   * pooled connection worked in are counted, and the one that reaches
   * DATABASE_POOL_TENANTS_PER_CONNECTION is closed before it goes back to the pool, which then
   * opens a fresh one. A PostgreSQL backend keeps the catalog entries and trigger-function plans of
   * every schema it touched until its connection closes, and every catalog change it makes or sees
   * walks them: one that met 1,200 tenants held 676 MiB and took 8–9 s to create a tenant schema
   * that a fresh one creates in 0.1 s (docs/scaling.md). Not behind a transaction pooler: there the
   * client connection is PgBouncer's and closing it frees nothing (its `server_lifetime` does).
   */
  private async transactionOn<T>(
    dataSource: DataSource,
    cluster: string,
    schema: string,
    work: (manager: EntityManager) => Promise<T>,
  ): Promise<T> {
    const runner = dataSource.createQueryRunner();
    const client = (await runner.connect()) as { end(): Promise<void> };
    try {
      await runner.startTransaction();
      try {
        const result = await work(runner.manager);
        await runner.commitTransaction();
        return result;
      } catch (error) {
        // As TypeORM's transaction(): a failed rollback (a broken connection) never hides the cause.
        await runner.rollbackTransaction().catch(() => undefined);
        throw error;
      }
    } finally {
      // Closed while still checked out, so the pool removes it on release instead of keeping it.
      if (this.spent(client, cluster, schema)) await client.end().catch(() => undefined);
      await runner.release();
    }
  }

  /** Counts `schema` against the connection; true once it has worked in its share of tenants. */
  private spent(client: object, cluster: string, schema: string): boolean {
    const limit = this.config.database.poolTenantsPerConnection;
    if (limit === 0 || (cluster === HOME_CLUSTER && this.config.database.pooler === 'transaction')) return false;
    let schemas = this.schemasOf.get(client);
    if (!schemas) this.schemasOf.set(client, (schemas = new Set<string>()));
    schemas.add(schema);
    return schemas.size >= limit;
  }

  /** `transaction`, for callers that hold only the schema name. */
  @SqlSnapshot({ params: [EXAMPLE_TARGET.schema, NO_WORK] })
  transactionOnSchema<T>(schema: string, work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.transaction({ id: tenantIdFromSchema(schema), schema }, work);
  }

  /**
   * Whether the tenant's schema exists on the cluster it is placed on, for telling a deleted
   * tenant from a table that is missing.
   */
  @SqlSnapshot({ params: [EXAMPLE_TARGET] })
  async schemaExists(tenant: TenantTarget): Promise<boolean> {
    return this.schemaExistsOn(await this.dataSource(tenant), tenant.schema);
  }

  /**
   * After a failure on a missing name: whether the tenant left `cluster` since the transaction
   * chose it (a stale cached placement, or a transaction that began just before the retirement), so the failure is the move's and a retry reaches the new cluster. The cached placement
   * is dropped either way: the next transaction reads it afresh.
   */
  private async movedAway(
    tenant: TenantTarget,
    cluster: string,
    dataSource: DataSource,
    error: unknown,
  ): Promise<boolean> {
    const code = errorCode(error);
    if (!code || !NAMES_GONE.has(code)) return false;
    this.placement.forget(tenant.id);
    const now = await this.placement.lookup(tenant.id);
    if (!now) return false;
    return now.cluster !== cluster && !(await this.schemaExistsOn(dataSource, tenant.schema));
  }

  private async schemaExistsOn(dataSource: DataSource, schema: string): Promise<boolean> {
    const rows = await dataSource.query<unknown[]>(TENANT_CONNECTIONS_SQL.schemaExists, [schema]);
    return rows.length > 0;
  }
}

/** The advisory lock TenantMover holds exclusively on the source cluster while it copies the tenant. */
export function moveLockKey(tenantId: string): string {
  return `cairn.tenant_move:${tenantId}`;
}

/** PostgreSQL: undefined_table, invalid_schema_name. */
export const NAMES_GONE = new Set(['42P01', '3F000']);

export function errorCode(error: unknown): string | undefined {
  const { code, driverError } = (error ?? {}) as { code?: unknown; driverError?: { code?: unknown } };
  const found = driverError?.code ?? code;
  return typeof found === 'string' ? found : undefined;
}
