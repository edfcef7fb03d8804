/**
 * The statements TenantConnections sends on a tenant's cluster: the first statement of every
 * tenant transaction, and the look-up that tells a dropped schema from a missing table.
 */
export const TENANT_CONNECTIONS_SQL = {
  /** Whether a schema exists on the cluster the statement runs on. */
  schemaExists: `SELECT 1 FROM pg_namespace WHERE nspname = $1`,
} as const;

/**
 * `SELECT [pg_try_advisory_xact_lock_shared(…) AS unfrozen,] set_config($…, $…, true), …`: the
 * first statement of a tenant transaction, so the move lock and the transaction-local settings
 * cost one round trip. `$1` is the move lock's key when `lock`, then each setting's name and
 * value. The try fails while TenantMover holds the lock exclusively, and also while it waits for
 * it (PostgreSQL queues a request behind a conflicting waiter), so the freeze starts the moment
 * the move asks. Without a lock it is the plain `set_config` list, also used to add settings to a
 * transaction already open.
 */
export function transactionOpeningSql(lock: boolean, settings: number): string {
  const offset = lock ? 1 : 0;
  const calls = Array.from(
    { length: settings },
    (_, i) => `set_config($${offset + i * 2 + 1}, $${offset + i * 2 + 2}, true)`,
  );
  if (lock) calls.unshift(`pg_try_advisory_xact_lock_shared(hashtextextended($1, 0)) AS unfrozen`);
  return `SELECT ${calls.join(', ')}`;
}
