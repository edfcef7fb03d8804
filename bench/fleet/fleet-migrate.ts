/**
 * `npm run migrate` over the whole fleet:
 * 1. the real command with nothing to do (every deploy runs it: one locked check per tenant);
 * 2. a schema change over every tenant (migrate-child.ts: the real run with one more migration),
 *    killed with SIGKILL once half the tenants are reported, then run again to the end: the
 *    second run must migrate only what the first did not, and every tenant must end at the new
 *    version with the new table;
 * 3. the baseline: the same change, written for another table, applied by one bare pg client
 *    schema by schema (one transaction each), the floor of what any migration run must do.
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { quotedSchema, TENANT_MIGRATION_LIST } from '@cairn/tenancy';
import { Client } from 'pg';
import { type FleetTenant } from './fleet-seed';

export interface FleetMigration {
  readonly tenants: number;
  readonly upToDateSeconds: number;
  readonly upToDateSummary: string;
  /** The schema-change runs (null when skipped: they touch every tenant of the database). */
  readonly change: SchemaChangeRuns | null;
}

export interface SchemaChangeRuns {
  /** Tenants the killed run reported before SIGKILL, and how long it had run. */
  readonly killedAfter: { readonly reported: number; readonly seconds: number };
  readonly resumed: {
    readonly migrated: number;
    readonly upToDate: number;
    readonly failed: number;
    readonly seconds: number;
  };
  /** Per-tenant durations of both runs' migrated tenants, ms. */
  readonly perTenantMs: number[];
  /** Tenants at the new version with the new table, after the resumed run. */
  readonly verified: number;
  readonly baselineSeconds: number;
}

interface ChildRun {
  readonly lines: Record<string, unknown>[];
  readonly seconds: number;
  readonly killed: boolean;
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stderr: string;
}

/** What a failed run said: how it ended, its error output and its last lines of output. */
function failure(run: ChildRun): string {
  const last = run.lines.slice(-5).map((line) => JSON.stringify(line).slice(0, 300));
  return `exit ${run.code ?? run.signal} after ${run.seconds.toFixed(1)} s; stderr: ${run.stderr.slice(0, 500) || '(none)'}; last output: ${last.join(' | ') || '(none)'}`;
}

/** Runs `script` with node; when `killAfter` tenant lines have arrived, sends SIGKILL. */
function runNode(script: string, env: NodeJS.ProcessEnv, killAfter?: number): Promise<ChildRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [script], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  let stderr = '';
  let killed = false;
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  createInterface({ input: child.stdout }).on('line', (line) => {
    try {
      lines.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      lines.push({ text: line });
    }
    const tenants = lines.filter((entry) => 'tenant' in entry).length;
    if (killAfter !== undefined && !killed && tenants >= killAfter) {
      killed = true;
      child.kill('SIGKILL');
    }
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) =>
      resolve({ lines, seconds: (performance.now() - started) / 1000, killed, code, signal, stderr }),
    );
  });
}

export async function migrateFleet(
  root: string,
  databaseUrl: string,
  fleet: readonly FleetTenant[],
  log: (line: string) => void,
  /** Only on a throwaway database: the change reaches every tenant there, not only the fleet. */
  schemaChange: boolean,
): Promise<FleetMigration> {
  const env = { ...process.env, DATABASE_URL: databaseUrl, NODE_ENV: 'production', LOG_LEVEL: 'warn' };
  const total = await liveTenants(databaseUrl);

  const upToDate = await runNode(join(root, 'dist/apps/api/src/migrate.js'), env);
  const summary = upToDate.lines
    .map((line) => (typeof line.text === 'string' ? line.text : ''))
    .find((text) => text.startsWith('tenants:'));
  if (upToDate.code !== 0 || !summary) throw new Error(`npm run migrate failed: ${failure(upToDate)}`);
  log(`  npm run migrate, nothing to do: ${summary}`);
  if (!schemaChange) {
    log('  schema change skipped: the database was given (DATABASE_URL), it would reach every tenant in it');
    return { tenants: total, upToDateSeconds: upToDate.seconds, upToDateSummary: summary, change: null };
  }
  return {
    tenants: total,
    upToDateSeconds: upToDate.seconds,
    upToDateSummary: summary,
    change: await schemaChangeRuns(root, env, databaseUrl, fleet, total, log),
  };
}

async function schemaChangeRuns(
  root: string,
  env: NodeJS.ProcessEnv,
  databaseUrl: string,
  fleet: readonly FleetTenant[],
  total: number,
  log: (line: string) => void,
): Promise<SchemaChangeRuns> {
  const child = join(root, 'dist/bench/fleet/migrate-child.js');
  const killedRun = await runNode(child, env, Math.floor(total / 2));
  const reported = tenantLines(killedRun);
  if (!killedRun.killed) throw new Error(`the migration run ended before it could be killed: ${failure(killedRun)}`);
  log(
    `  schema change killed (SIGKILL) after ${reported.length} of ${total} tenants, ${killedRun.seconds.toFixed(1)} s`,
  );
  const resumedRun = await runNode(child, env);
  if (resumedRun.code !== 0) throw new Error(`the resumed migration run failed: ${failure(resumedRun)}`);
  const resumed = tenantLines(resumedRun);
  const count = (status: string) => resumed.filter((line) => line.status === status).length;
  log(
    `  resumed run: ${count('migrated')} migrated, ${count('up-to-date')} up to date, ` +
      `${count('failed')} failed, ${resumedRun.seconds.toFixed(1)} s`,
  );

  const verified = await verifiedTenants(databaseUrl, fleet);
  const baselineSeconds = await bareMigration(databaseUrl, fleet);
  return {
    killedAfter: { reported: reported.length, seconds: killedRun.seconds },
    resumed: {
      migrated: count('migrated'),
      upToDate: count('up-to-date'),
      failed: count('failed'),
      seconds: resumedRun.seconds,
    },
    perTenantMs: [...reported, ...resumed].filter((line) => line.status === 'migrated').map((line) => Number(line.ms)),
    verified,
    baselineSeconds,
  };
}

function tenantLines(run: ChildRun): { status: string; ms: number }[] {
  return run.lines
    .filter((line) => 'tenant' in line)
    .map((line) => ({ status: String(line.status), ms: Number(line.ms) }));
}

async function withClient<T>(databaseUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'cairn-bench-fleet' });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function liveTenants(databaseUrl: string): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cairn.tenants WHERE deleted_at IS NULL`,
    );
    return result.rows[0]?.n ?? 0;
  });
}

/** Fleet tenants whose version is the new one and whose schema has the new table. */
function verifiedTenants(databaseUrl: string, fleet: readonly FleetTenant[]): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const result = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM cairn.tenants t
         JOIN pg_namespace n ON n.nspname = t.schema_name
         JOIN pg_class c ON c.relnamespace = n.oid AND c.relname = 'bench_fleet_probe'
        WHERE t.id = ANY($1::uuid[]) AND t.schema_version = $2`,
      [fleet.map(({ tenant }) => tenant.id), TENANT_MIGRATION_LIST.length + 1],
    );
    return result.rows[0]?.n ?? 0;
  });
}

/** The same three statements on another table, schema by schema, on one bare connection. */
function bareMigration(databaseUrl: string, fleet: readonly FleetTenant[]): Promise<number> {
  return withClient(databaseUrl, async (client) => {
    const started = performance.now();
    for (const { tenant } of fleet) {
      await client.query('BEGIN');
      await client.query(`SELECT set_config('search_path', $1, true)`, [`${quotedSchema(tenant.schema)}, public`]);
      await client.query(`CREATE TABLE bench_fleet_floor (id bigint PRIMARY KEY, note text NOT NULL)`);
      await client.query(`CREATE INDEX bench_fleet_floor_note ON bench_fleet_floor (note)`);
      await client.query(`COMMENT ON TABLE memories IS 'touched by the fleet benchmark baseline'`);
      await client.query('COMMIT');
    }
    return (performance.now() - started) / 1000;
  });
}
