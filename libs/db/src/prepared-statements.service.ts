import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { type Pool, type PoolClient } from 'pg';
import { type DataSource, type EntityManager, QueryFailedError } from 'typeorm';
import { type PostgresDriver } from 'typeorm/driver/postgres/PostgresDriver';

/**
 * Named prepared statements on the shared pool, for the few queries on every request's
 * path (token lookup). PostgreSQL plans a named statement once per connection instead of
 * on every call, which for a small join costs more than executing it.
 *
 * With DATABASE_PREPARED_STATEMENTS off (the default behind a transaction pooler, which hands
 * each statement to whichever server connection is free, where a name prepared on another is
 * unknown) the same text runs as an unnamed statement: same SQL, same results, planned per call.
 */
@Injectable()
export class PreparedStatements {
  private readonly pool: Pool;
  readonly named: boolean;

  constructor(@InjectDataSource() dataSource: DataSource, @Inject(CAIRN_CONFIG) config: CairnConfig) {
    this.pool = (dataSource.driver as PostgresDriver).master as Pool;
    this.named = config.database.preparedStatements;
  }

  /** `name` must identify `text` for the life of the process (bump a suffix when SQL changes). */
  async query<T>(name: string, text: string, values: unknown[]): Promise<T[]> {
    const result = await this.pool.query(this.named ? { name, text, values } : { text, values });
    return result.rows as T[];
  }

  /** `queryPreparedIn` with this process's setting. */
  queryIn<T>(manager: EntityManager, sql: string, parameters: readonly unknown[]): Promise<T[]> {
    return queryPreparedIn<T>(manager, sql, parameters, this.named);
  }
}

/**
 * A statement name that identifies `text` (PostgreSQL refuses to reuse a name for another
 * text on the same connection): for hot statements assembled at run time whose text depends
 * only on their shape, with every value a parameter.
 */
export function statementName(text: string): string {
  return `cairn_${createHash('sha1').update(text).digest('hex')}`;
}

/**
 * Runs `sql` as a named prepared statement on the connection of `manager`'s transaction:
 * PostgreSQL parses and plans the text once per connection and then reuses the plan. For hot
 * statements whose text depends only on their shape (every value a parameter). Outside a
 * transaction (no query runner), or with `named` false (behind a transaction pooler: see
 * PreparedStatements), it runs as a plain query. Errors surface as TypeORM's
 * QueryFailedError, as every other query's do, so one error mapping serves both.
 */
export async function queryPreparedIn<T>(
  manager: EntityManager,
  sql: string,
  parameters: readonly unknown[],
  named = true,
): Promise<T[]> {
  const runner = manager.queryRunner;
  if (!runner || !named) return manager.query<T[]>(sql, [...parameters]);
  const client = (await runner.connect()) as PoolClient;
  try {
    const result = await client.query({ name: statementName(sql), text: sql, values: [...parameters] });
    return result.rows as T[];
  } catch (error) {
    throw new QueryFailedError(sql, [...parameters], error as Error);
  }
}
