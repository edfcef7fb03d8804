import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { NoSqlSnapshot, SqlSnapshot } from '@cairn/db';
import { Client } from 'pg';
import { type DataSource } from 'typeorm';

/** The channel control migration 4's triggers and probe function notify. */
export const AUTH_CHANGE_CHANNEL = 'cairn_auth_change';

/** A listening connection: close it when done; `onLost` has been called if it failed on its own. */
export interface NoticeSubscription {
  close(): Promise<void>;
}

/**
 * The database side of the token cache's change notices: a dedicated connection that LISTENs
 * (notices cannot arrive on pooled connections, which are handed from caller to caller), and
 * the probes sent through the ordinary pool to prove they arrive.
 */
@Injectable()
export class AuthChangeNoticesRepository {
  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /**
   * Opens the listening connection, on the session-capable URL (DATABASE_DIRECT_URL beside a
   * transaction pooler, else DATABASE_URL). `onNotice` gets each payload on the channel; `onLost` is
   * called once if the connection fails or ends without `close`. Rejects if it cannot start.
   */
  @NoSqlSnapshot(
    'sends `LISTEN cairn_auth_change` on a connection of its own, outside the pool: notices never reach pooled connections',
  )
  async listen(onNotice: (payload: string) => void, onLost: (error: unknown) => void): Promise<NoticeSubscription> {
    const url = this.config.database.sessionUrl;
    if (!url) throw new Error('no session-capable connection to LISTEN on (DATABASE_DIRECT_URL is unset)');
    const client = new Client({
      connectionString: url,
      application_name: `cairn-${this.config.app}-auth-listener`,
      keepAlive: true,
      connectionTimeoutMillis: 10_000,
    });
    let closed = false;
    let lost = false;
    const lose = (error: unknown) => {
      if (closed || lost) return;
      lost = true;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      onLost(error);
    };
    client.on('notification', (notice) => {
      if (notice.channel === AUTH_CHANGE_CHANNEL) onNotice(notice.payload ?? '');
    });
    client.on('error', lose);
    client.on('end', () => lose(undefined));
    try {
      await client.connect();
      await client.query(`LISTEN ${AUTH_CHANGE_CHANNEL}`);
    } catch (error) {
      closed = true;
      await client.end().catch(() => undefined);
      throw error;
    }
    return {
      close: async () => {
        closed = true;
        await client.end().catch(() => undefined);
      },
    };
  }

  /**
   * The heartbeat: sent by the migration's probe function, so a database without the triggers
   * (not yet migrated) fails it and the cache stays off.
   */
  @SqlSnapshot({ params: ['example-nonce'] })
  async probe(nonce: string): Promise<void> {
    await this.dataSource.query('SELECT cairn.auth_change_probe($1)', [nonce]);
  }

  /** A marker that comes back on the channel after every notice committed before it. */
  @SqlSnapshot({ params: ['example-nonce'] })
  async mark(nonce: string): Promise<void> {
    await this.dataSource.query('SELECT pg_notify($1, $2)', [AUTH_CHANGE_CHANNEL, `settle:${nonce}`]);
  }
}
