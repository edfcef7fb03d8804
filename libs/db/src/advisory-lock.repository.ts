import { type DataSource } from 'typeorm';
import { ADVISORY_LOCK_SQL } from './advisory-lock.sql';

/** Advisory lock keys: (namespace, id). 0x43414952 is "CAIR". */
export const LOCK_NAMESPACE = 0x43414952;
export const MIGRATION_LOCK_ID = 1;

/**
 * Holds a session-level advisory lock on a dedicated connection while `work` runs.
 * Concurrent holders queue: a second `npm run migrate` waits, then finds nothing to do.
 */
export async function withAdvisoryLock<T>(
  dataSource: DataSource,
  lockId: number,
  onWait: () => void,
  work: () => Promise<T>,
): Promise<T> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    const rows = (await runner.query(ADVISORY_LOCK_SQL.tryLock, [LOCK_NAMESPACE, lockId])) as {
      locked: boolean;
    }[];
    const locked = rows[0]?.locked === true;
    if (!locked) {
      onWait();
      await runner.query(ADVISORY_LOCK_SQL.lock, [LOCK_NAMESPACE, lockId]);
    }
    try {
      return await work();
    } finally {
      await runner.query(ADVISORY_LOCK_SQL.unlock, [LOCK_NAMESPACE, lockId]);
    }
  } finally {
    await runner.release();
  }
}
