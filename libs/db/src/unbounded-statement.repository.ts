import { type DataSource } from 'typeorm';

/**
 * Runs one maintenance statement (an index build, a VACUUM) on a connection of its own with no
 * statement timeout: on a large tenant these take longer than the pool's timeout allows any
 * query, and neither can run inside a transaction. The connection goes back to the pool with the
 * pool's settings restored.
 */
export async function queryWithoutStatementTimeout(dataSource: DataSource, statement: string): Promise<void> {
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
