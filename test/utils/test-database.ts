import { randomBytes } from 'node:crypto';
import { ControlMigrator } from '@cairn/db';
import { Client } from 'pg';
import { DataSource } from 'typeorm';

/** Environment handed from jest's global setup to the test workers. */
export const TEST_ENV = {
  serverUrl: 'CAIRN_TEST_SERVER_URL',
  templateUrl: 'CAIRN_TEST_TEMPLATE_URL',
  redisUrl: 'CAIRN_TEST_REDIS_URL',
  /** Set with CAIRN_TEST_PGBOUNCER=1: a URL of the transaction-mode pgbouncer in front of the server. */
  pgbouncerUrl: 'CAIRN_TEST_PGBOUNCER_URL',
} as const;

const TEMPLATE_DATABASE = 'cairn_test_template';

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** Builds the migrated template (control schema at the latest version) once per test run. */
export async function prepareTemplateDatabase(serverUrl: string): Promise<string> {
  await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${TEMPLATE_DATABASE} WITH (FORCE)`);
  await adminQuery(serverUrl, `CREATE DATABASE ${TEMPLATE_DATABASE}`);
  const url = withDatabase(serverUrl, TEMPLATE_DATABASE);
  const dataSource = new DataSource({ type: 'postgres', url });
  await dataSource.initialize();
  try {
    await new ControlMigrator(dataSource).migrate();
  } finally {
    await dataSource.destroy();
  }
  return url;
}

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

function requireEnv(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run tests through jest (npm test), whose global setup provides it`);
  return value;
}

/** A fresh, migrated database for one test file, cloned from the template in milliseconds. */
export async function createTestDatabase(options: { migrated?: boolean } = {}): Promise<TestDatabase> {
  const serverUrl = requireEnv(TEST_ENV.serverUrl);
  const name = `cairn_test_${randomBytes(6).toString('hex')}`;
  const template = options.migrated === false ? 'template0' : TEMPLATE_DATABASE;
  await adminQuery(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${template}`);
  return {
    url: withDatabase(serverUrl, name),
    drop: () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

export function testRedisUrl(): string {
  return requireEnv(TEST_ENV.redisUrl);
}

/**
 * With CAIRN_TEST_PGBOUNCER=1, the URL of `databaseUrl`'s database through the transaction-mode
 * pgbouncer global setup started; undefined otherwise, or for a URL of another server (a test
 * that points an app at a closed port means that port).
 */
export function throughTestPooler(databaseUrl: string): string | undefined {
  const pooler = process.env[TEST_ENV.pgbouncerUrl];
  const server = process.env[TEST_ENV.serverUrl];
  if (!pooler || !server) return undefined;
  const url = new URL(databaseUrl);
  if (url.host !== new URL(server).host) return undefined;
  const through = new URL(pooler);
  url.hostname = through.hostname;
  url.port = through.port;
  return url.toString();
}
