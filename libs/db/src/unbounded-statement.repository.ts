import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { Client } from 'pg';
import { type DataSource } from 'typeorm';
import { NoSqlSnapshot } from './sql-snapshot.decorator';

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
@Injectable()
export class UnboundedStatements {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
  ) {}

  @NoSqlSnapshot('runs the statement its caller hands it (a VACUUM, an index build): the callers have the examples')
  async run(statement: string): Promise<void> {
    const { pooler, directUrl } = this.config.database;
    if (pooler === 'transaction') {
      if (directUrl) return this.runDirect(directUrl, statement);
      await this.dataSource.query(statement);
      return;
    }
    const runner = this.dataSource.createQueryRunner();
    await runner.connect();
    try {
      await runner.query(`SET statement_timeout = 0`);
      await runner.query(statement);
    } finally {
      await runner.query(`RESET statement_timeout`).catch(() => undefined);
      await runner.release();
    }
  }

  private async runDirect(url: string, statement: string): Promise<void> {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: 10_000, statement_timeout: 0 });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
