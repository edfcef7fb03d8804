import { type CairnConfig } from '@cairn/config';

/**
 * The pg pool settings of every cluster's pool (home and members), so the two never drift.
 *
 * The timeouts travel in the startup packet, which PgBouncer 1.18 refuses ("unsupported startup
 * parameter") unless told to ignore them, and behind a transaction pooler they would set nothing
 * for the server connections it shares anyway: there the operator sets them on the database role
 * (`ALTER ROLE … SET statement_timeout`), which every server connection the pooler opens carries.
 * DATABASE_POOLER describes the home cluster's connection; member clusters are reached directly.
 */
export function poolOptions(config: CairnConfig, behindPooler: boolean): Record<string, unknown> {
  const { database } = config;
  return {
    max: database.poolMax,
    // Recycled so no backend keeps the catalog caches of thousands of tenants for ever.
    maxLifetimeSeconds: database.poolMaxLifetimeSeconds,
    application_name: `cairn-${config.app}`,
    ...(behindPooler
      ? {}
      : {
          statement_timeout: database.statementTimeoutMs,
          idle_in_transaction_session_timeout: database.statementTimeoutMs * 2,
        }),
    connectionTimeoutMillis: 10_000,
  };
}
