import { type DataSource } from 'typeorm';

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
    const rows = (await runner.query(`SELECT pg_try_advisory_lock($1, $2) AS locked`, [LOCK_NAMESPACE, lockId])) as {
      locked: boolean;
    }[];
    const locked = rows[0]?.locked === true;
    if (!locked) {
      onWait();
      await runner.query(`SELECT pg_advisory_lock($1, $2)`, [LOCK_NAMESPACE, lockId]);
    }
    try {
      return await work();
    } finally {
      await runner.query(`SELECT pg_advisory_unlock($1, $2)`, [LOCK_NAMESPACE, lockId]);
    }
  } finally {
    await runner.release();
  }
}
