import { type CairnConfig } from '@cairn/config';
import { Client } from 'pg';
import { type DataSource } from 'typeorm';
import { ADVISORY_LOCK_SQL } from './advisory-lock.sql';

/** Advisory lock keys: (namespace, id). 0x43414952 is "CAIR". */
export const LOCK_NAMESPACE = 0x43414952;
export const MIGRATION_LOCK_ID = 1;

/** Where a session-level lock can be held: the pool, or a connection of its own to DATABASE_DIRECT_URL. */
export interface AdvisoryLockTarget {
  readonly dataSource: DataSource;
  readonly database: CairnConfig['database'];
}

/** A connection that lives as long as the lock: its session holds it. */
interface LockSession {
  query(sql: string, parameters: unknown[]): Promise<unknown[]>;
  close(): Promise<void>;
}

/**
 * Thrown when a session-level lock is needed behind a transaction pooler with no direct
 * connection: the pooler would hand the lock's session to other clients between statements,
 * and the unlock could reach another server connection than the lock.
 */
export class SessionUnavailableError extends Error {
  constructor(purpose: string) {
    super(
      `${purpose} holds a session-level advisory lock, which cannot be held through a transaction-mode pooler ` +
        '(DATABASE_POOLER=transaction): set DATABASE_DIRECT_URL to a connection straight to PostgreSQL, ' +
        'or run it with DATABASE_URL pointing at PostgreSQL itself and DATABASE_POOLER=none',
    );
    this.name = 'SessionUnavailableError';
  }
}

async function openLockSession(target: AdvisoryLockTarget, purpose: string): Promise<LockSession> {
  const { database } = target;
  if (database.directUrl) {
    // The work itself still runs on the pool (through the pooler): only the lock needs a session.
    const client = new Client({ connectionString: database.directUrl, connectionTimeoutMillis: 10_000 });
    await client.connect();
    return {
      query: async (sql, parameters) => (await client.query(sql, parameters)).rows as unknown[],
      close: () => client.end(),
    };
  }
  if (database.pooler === 'transaction') throw new SessionUnavailableError(purpose);
  const runner = target.dataSource.createQueryRunner();
  await runner.connect();
  return {
    query: (sql, parameters) => runner.query(sql, parameters) as Promise<unknown[]>,
    close: () => runner.release(),
  };
}

/**
 * Holds a session-level advisory lock on a dedicated connection while `work` runs (straight to
 * PostgreSQL when DATABASE_DIRECT_URL is set; `purpose` names the command in the refusal when
 * there is no session to hold it in). Concurrent holders queue: a second `npm run migrate`
 * waits, then finds nothing to do.
 */
export async function withAdvisoryLock<T>(
  target: AdvisoryLockTarget,
  purpose: string,
  lockId: number,
  onWait: () => void,
  work: () => Promise<T>,
): Promise<T> {
  const session = await openLockSession(target, purpose);
  try {
    const rows = (await session.query(ADVISORY_LOCK_SQL.tryLock, [LOCK_NAMESPACE, lockId])) as {
      locked: boolean;
    }[];
    const locked = rows[0]?.locked === true;
    if (!locked) {
      onWait();
      await session.query(ADVISORY_LOCK_SQL.lock, [LOCK_NAMESPACE, lockId]);
    }
    try {
      return await work();
    } finally {
      await session.query(ADVISORY_LOCK_SQL.unlock, [LOCK_NAMESPACE, lockId]);
    }
  } finally {
    await session.close();
  }
}
