/**
 * Session-level advisory lock statements on a (namespace, id) key: `$1` is LOCK_NAMESPACE,
 * `$2` the lock id. Session-level (not transaction-level) so the lock spans the many
 * transactions of a migration run; it is released explicitly, or with the connection.
 */
export const ADVISORY_LOCK_SQL = {
  /** Does not wait: tells whether someone else holds the lock, so the caller can say so. */
  tryLock: `SELECT pg_try_advisory_lock($1, $2) AS locked`,
  /** Waits until the holder releases it. */
  lock: `SELECT pg_advisory_lock($1, $2)`,
  unlock: `SELECT pg_advisory_unlock($1, $2)`,
} as const;
