import { randomBytes } from 'node:crypto';
import { type AppName, type CairnConfig, loadConfig } from '@cairn/config';
import { throughTestPooler } from './test-database';

export const TEST_ADMIN_TOKEN = `test-admin-${randomBytes(24).toString('hex')}`;
/**
 * One master key per test file (jest loads this module once per file), so the apps and workers a
 * file starts on its database share it, as replicas do: a process whose key cannot unwrap the
 * stored data keys refuses to start. Tests about other keys pass CAIRN_MASTER_KEY themselves.
 */
const TEST_MASTER_KEY = randomBytes(32).toString('base64');

/**
 * With CAIRN_TEST_PGBOUNCER=1 the apps reach their database through the run's transaction-mode
 * pgbouncer, as most production deployments on Kubernetes do, with the direct URL beside it for
 * what needs a session (LISTEN, migration locks). A test that sets DATABASE_POOLER itself, or
 * points at another server, keeps what it asked for.
 */
function poolerSettings(databaseUrl: string, overrides: Record<string, string>): Record<string, string> {
  const chosen = 'DATABASE_POOLER' in overrides || 'DATABASE_URL' in overrides;
  const pooled = chosen ? undefined : throughTestPooler(databaseUrl);
  if (!pooled) return { DATABASE_URL: databaseUrl };
  return { DATABASE_URL: pooled, DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: databaseUrl };
}

/** A real, validated configuration for tests, built the same way the apps build theirs. */
export function testConfig(
  databaseUrl: string,
  redisUrl: string,
  overrides: Record<string, string> = {},
  app: AppName = 'api',
): CairnConfig {
  return loadConfig(app, {
    NODE_ENV: 'test',
    ...poolerSettings(databaseUrl, overrides),
    REDIS_URL: redisUrl,
    CAIRN_ADMIN_TOKEN: TEST_ADMIN_TOKEN,
    CAIRN_MASTER_KEY: TEST_MASTER_KEY,
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    DATABASE_POOL_MAX: '5',
    // Every authenticated REST and MCP request spends these budgets: at the maximum, so a test
    // that is not about them never meets a 429. Tests of the limits set their own.
    RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
    RATE_LIMIT_TENANT_PER_MINUTE: '10000000',
    BROADCAST_RATE_PER_MINUTE: '1000000',
    ...overrides,
  });
}
