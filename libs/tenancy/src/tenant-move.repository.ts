import { Injectable } from '@nestjs/common';
import { ClusterPools, NoSqlSnapshot, type SqlRunner } from '@cairn/db';
import { type QueryRunner } from 'typeorm';
import { moveLockKey } from './tenant-connections.repository';
import { TENANT_CONNECTIONS_SQL } from './tenant-connections.sql';
import { quotedSchema } from './tenant-ref';

/** One table's fingerprint: its row count and an MD5 over its rows in a fixed order. */
export interface TableDigest {
  readonly table: string;
  readonly rows: number;
  readonly md5: string;
}

/** The freeze of a tenant on its source cluster: the move lock held on a connection of its own. */
export interface TenantFreeze {
  /** Renames the frozen schema away, on the freezing connection (TenantMover's retirement step). */
  retire(schema: string, as: string): Promise<void>;
  release(): Promise<void>;
}

/**
 * The statements of a tenant move (TenantMover), each on a cluster it names. Member clusters
 * exist only where DATABASE_CLUSTERS names them, so these have no snapshot examples: the
 * two-cluster test runs every one of them.
 */
@Injectable()
export class TenantMoveRepository {
  constructor(private readonly pools: ClusterPools) {}

  /**
   * Takes the tenant's move lock exclusively on `cluster`: waits for the tenant transactions in
   * flight there to end, and makes new ones wait (they take it shared). Bounded by the statement
   * timeout: a transaction that runs longer makes the move fail, unfrozen.
   */
  @NoSqlSnapshot('runs on a cluster the move names; the two-cluster placement test runs it')
  async freeze(cluster: string, tenantId: string): Promise<TenantFreeze> {
    const runner: QueryRunner = (await this.pools.dataSource(cluster)).createQueryRunner();
    await runner.connect();
    try {
      await runner.query(`SELECT pg_advisory_lock(hashtextextended($1, 0))`, [moveLockKey(tenantId)]);
    } catch (error) {
      await runner.release();
      throw error;
    }
    let released = false;
    return {
      retire: async (schema, as) => {
        await runner.query(`ALTER SCHEMA ${quotedSchema(schema)} RENAME TO ${quotedRetired(as)}`);
      },
      release: async () => {
        if (released) return;
        released = true;
        try {
          await runner.query(`SELECT pg_advisory_unlock(hashtextextended($1, 0))`, [moveLockKey(tenantId)]);
        } finally {
          await runner.release();
        }
      },
    };
  }

  @NoSqlSnapshot('runs on a cluster the move names; the two-cluster placement test runs it')
  async schemaExists(cluster: string, schema: string): Promise<boolean> {
    const dataSource = await this.pools.dataSource(cluster);
    const rows = await dataSource.query<unknown[]>(TENANT_CONNECTIONS_SQL.schemaExists, [schema]);
    return rows.length > 0;
  }

  /** Every table's digest, by table name, in one repeatable-read snapshot of `cluster`. */
  @NoSqlSnapshot('runs on a cluster the move names; the two-cluster placement test runs it')
  async digests(cluster: string, schema: string): Promise<TableDigest[]> {
    const dataSource = await this.pools.dataSource(cluster);
    const runner = dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction('REPEATABLE READ');
      const tables = (await runner.query(
        `SELECT c.relname AS table FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE n.nspname = $1 AND c.relkind IN ('r', 'p') AND NOT c.relispartition ORDER BY c.relname`,
        [schema],
      )) as { table: string }[];
      const digests: TableDigest[] = [];
      for (const { table } of tables) {
        // Rows as text, sorted: independent of physical order, and any changed value changes the digest.
        const [row] = (await runner.query(
          `SELECT count(*)::text AS n, md5(coalesce(string_agg(r::text, E'\\n' ORDER BY r::text), '')) AS md5
             FROM ${quotedSchema(schema)}.${quotedTable(table)} r`,
        )) as { n: string; md5: string }[];
        digests.push({ table, rows: Number(row.n), md5: row.md5 });
      }
      await runner.commitTransaction();
      return digests;
    } finally {
      if (runner.isTransactionActive) await runner.rollbackTransaction().catch(() => undefined);
      await runner.release();
    }
  }

  /** Stamps the copied schema with its version, as member-cluster migrations expect (TenantMigrationsRepository.stamp). */
  @NoSqlSnapshot('runs on a cluster the move names; the two-cluster placement test runs it')
  async stamp(cluster: string, schema: string, version: number): Promise<void> {
    const dataSource = await this.pools.dataSource(cluster);
    await dataSource.query(
      `COMMENT ON SCHEMA ${quotedSchema(schema)} IS 'cairn:schema_version=${Math.trunc(version)}'`,
    );
  }

  /** Drops a copy the move made and then abandoned. */
  @NoSqlSnapshot('runs on a cluster the move names; the two-cluster placement test runs it')
  async dropSchema(cluster: string, schema: string): Promise<void> {
    const dataSource = await this.pools.dataSource(cluster);
    await dataSource.query(`DROP SCHEMA IF EXISTS ${quotedSchema(schema)} CASCADE`);
  }

  /** Renames a retired copy back (a move that failed after retiring its source). */
  @NoSqlSnapshot('runs on a cluster the move names; the two-cluster placement test runs it')
  async restoreRetired(cluster: string, retired: string, schema: string): Promise<void> {
    const dataSource = await this.pools.dataSource(cluster);
    await dataSource.query(`ALTER SCHEMA ${quotedRetired(retired)} RENAME TO ${quotedSchema(schema)}`);
  }

  /** A runner of single statements on `cluster`, for the move steps other libraries registered. */
  @NoSqlSnapshot('hands out a runner; its statements are the registered steps, shown under their owners')
  async runnerOn(cluster: string): Promise<SqlRunner> {
    const dataSource = await this.pools.dataSource(cluster);
    return (sql, parameters) => dataSource.query(sql, parameters);
  }
}

/** A retired copy's name: `<schema>_moved_<seconds>`, nothing else. */
function quotedRetired(name: string): string {
  if (!/^t_[0-9a-z]{1,40}_moved_[0-9]{1,12}$/.test(name)) throw new Error('refusing an unexpected retired schema name');
  return `"${name}"`;
}

/** Table names come from pg_class of a schema we created; quoted all the same. */
function quotedTable(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
