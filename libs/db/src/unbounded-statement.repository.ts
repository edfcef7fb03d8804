import { Client } from 'pg';
import { type AdvisoryLockTarget } from './advisory-lock.repository';

/**
 * Runs one maintenance statement (an index build, a VACUUM) on a connection of its own with no
 * statement timeout: on a large tenant these take longer than the pool's timeout allows any
 * query, and neither can run inside a transaction. The connection goes back to the pool with the
 * pool's settings restored.
 *
 * Behind a transaction pooler a session `SET` would land on whichever server connection is free
 * and stay there for other clients, so the statement goes straight to PostgreSQL on
 * DATABASE_DIRECT_URL when there is one; without one it runs through the pooler as it is, under
 * the database role's own statement_timeout.
 */
export async function queryWithoutStatementTimeout(target: AdvisoryLockTarget, statement: string): Promise<void> {
  const { dataSource, database } = target;
  if (database.pooler === 'transaction') {
    if (database.directUrl) return queryDirect(database.directUrl, statement);
    await dataSource.query(statement);
    return;
  }
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    await runner.query(`SET statement_timeout = 0`);
    await runner.query(statement);
  } finally {
    await runner.query(`RESET statement_timeout`).catch(() => undefined);
    await runner.release();
  }
}

async function queryDirect(url: string, statement: string): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000, statement_timeout: 0 });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end().catch(() => undefined);
  }
}
