import { randomBytes } from 'node:crypto';
import { ControlMigrator } from '@cairn/db';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { startPgbouncer } from '../../tools/local/pgbouncer';
import { type LocalServices, startEphemeralServices } from '../../tools/local/services';

export interface BenchEnvironment {
  /** Where PostgreSQL and Redis came from, for the report. */
  readonly source: 'DATABASE_URL/REDIS_URL' | 'ephemeral services';
  /** The throwaway database every benchmark uses; its control schema is migrated. */
  readonly databaseUrl: string;
  readonly databaseName: string;
  readonly redisUrl: string;
  readonly serverVersion: string;
  /** `--pgbouncer`: the apps reach the database through a transaction-mode pgbouncer. */
  readonly pooler: 'none' | 'pgbouncer (transaction mode)';
}

/** Set by `prepareEnvironment --pgbouncer`: maps the bench database's URL to the pooler's. */
let throughPooler: ((url: string) => string) | undefined;

/**
 * The database settings an app of the run is configured with for `databaseUrl` (the
 * environment's): DATABASE_URL alone, or with --pgbouncer the pooler's URL with
 * DATABASE_POOLER=transaction and the direct URL beside it, as the README's "Behind PgBouncer"
 * sets a deployment up.
 */
export function databaseSettings(databaseUrl: string): Record<string, string> {
  if (!throughPooler) return { DATABASE_URL: databaseUrl };
  return { DATABASE_URL: throughPooler(databaseUrl), DATABASE_POOLER: 'transaction', DATABASE_DIRECT_URL: databaseUrl };
}

type Cleanup = () => Promise<void>;

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** One statement on its own connection to `url` (used for CREATE/DROP DATABASE only). */
async function serverQuery<T extends object>(url: string, sql: string): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/**
 * PostgreSQL and Redis for the run: the servers named by DATABASE_URL and REDIS_URL when
 * both are set, otherwise throwaway ones on free ports. Either way the benchmarks get a
 * fresh `cairn_bench_<random>` database (the named database's data is never touched),
 * dropped again by the cleanup this registers. With `pgbouncer` a transaction-mode pgbouncer
 * starts in front of the server, and `databaseSettings` points the apps at it.
 */
export async function prepareEnvironment(
  log: (line: string) => void,
  onCleanup: (cleanup: Cleanup) => void,
  options: { readonly pgbouncer?: boolean } = {},
): Promise<BenchEnvironment> {
  const givenDatabase = process.env.DATABASE_URL;
  const givenRedis = process.env.REDIS_URL;
  let serverUrl: string;
  let redisUrl: string;
  let source: BenchEnvironment['source'];
  if (givenDatabase && givenRedis) {
    serverUrl = givenDatabase;
    redisUrl = givenRedis;
    source = 'DATABASE_URL/REDIS_URL';
  } else {
    log('starting ephemeral PostgreSQL + Redis (set DATABASE_URL and REDIS_URL to use your own)');
    const services: LocalServices = await startEphemeralServices((line) => log(`  ${line}`));
    onCleanup(() => services.stop());
    serverUrl = services.databaseUrl;
    redisUrl = services.redisUrl;
    source = 'ephemeral services';
  }

  if (options.pgbouncer) {
    const pgbouncer = await startPgbouncer(serverUrl, (line) => log(`  ${line}`));
    onCleanup(async () => {
      throughPooler = undefined;
      await pgbouncer.stop();
    });
    throughPooler = (url) => pgbouncer.through(url);
  }

  const databaseName = `cairn_bench_${randomBytes(6).toString('hex')}`;
  await serverQuery(serverUrl, `CREATE DATABASE ${databaseName}`);
  onCleanup(async () => {
    await serverQuery(serverUrl, `DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
  });
  const databaseUrl = withDatabase(serverUrl, databaseName);
  log(`created throwaway database ${databaseName}`);

  const dataSource = new DataSource({ type: 'postgres', url: databaseUrl });
  await dataSource.initialize();
  let serverVersion: string;
  try {
    await new ControlMigrator(dataSource).migrate();
    const [row] = await dataSource.query<{ server_version: string }[]>('SHOW server_version');
    serverVersion = row?.server_version ?? 'unknown';
  } finally {
    await dataSource.destroy();
  }
  const pooler = options.pgbouncer ? 'pgbouncer (transaction mode)' : 'none';
  return { source, databaseUrl, databaseName, redisUrl, serverVersion, pooler };
}
