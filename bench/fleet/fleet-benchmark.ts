/**
 * `npm run bench -- --only tenants --fleet-tenants 10000`: many tenants on one PostgreSQL.
 * Provisioning latency as the catalog grows (the first tenth against the last tenth of the
 * fleet), the database's size per tenant, `npm run migrate` over every tenant (nothing to do;
 * a schema change killed halfway and resumed; against a bare-SQL floor), recall for a random
 * tenant among all of them against one among ten, and one backend's memory as it touches
 * more tenants (fleet-recall.ts), then the time to drop a sample of them. Sized by --fleet-tenants (default 1,000 for a 2-core
 * machine; the issue's figure is 10,000).
 */
import { Client } from 'pg';
import { type LoadOptions } from '../lib/load';
import { type ResultRow, row } from '../lib/report';
import { type LatencySummary, summarize } from '../lib/stats';
import { type SearchApp, startSearchApp } from '../search/fixture';
import { buildFleet, dropFleetSample } from './fleet-seed';
import { migrateFleet, type FleetMigration } from './fleet-migrate';
import {
  backendMemoryAcrossFleet,
  type BackendMemoryStep,
  FEW_TENANTS,
  recallAcrossFleet,
  type RecallAcrossFleet,
} from './fleet-recall';

const NAME = 'tenant fleet';
const MEMORIES_PER_TENANT = 20;
const CHECKPOINTS = [10, 100, 1_000, 10_000, 100_000];
const DROPPED_SAMPLE = 100;
const MIB = 1024 * 1024;

export interface FleetBenchInput {
  readonly root: string;
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly tenants: number;
  /** The database is a throwaway one (the schema-change step reaches every tenant in it). */
  readonly throwawayDatabase: boolean;
  readonly load: Omit<LoadOptions, 'concurrency'>;
  readonly log: (line: string) => void;
}

export interface FleetBenchData {
  readonly tenants: number;
  readonly memoriesPerTenant: number;
  readonly provisioning: {
    readonly all: LatencySummary;
    readonly firstTenth: LatencySummary;
    readonly lastTenth: LatencySummary;
  };
  readonly databaseBytes: { readonly before: number; readonly after: number; readonly perTenant: number };
  readonly relationsPerTenant: number;
  readonly seedSeconds: number;
  readonly recall: RecallAcrossFleet[];
  readonly backendMemory: BackendMemoryStep[];
  readonly migration: FleetMigration;
  /** Milliseconds each `DELETE /v1/tenants/:slug` of the dropped sample took, the fleet standing. */
  readonly deprovisioningMs: LatencySummary;
}

export async function benchFleet(
  input: FleetBenchInput,
): Promise<{ rows: ResultRow[]; data: FleetBenchData; notes: string[] }> {
  const { log } = input;
  const bench = await startSearchApp(input.databaseUrl, input.redisUrl, 'hash');
  // One connection, never recycled: every recall of the memory phase lands on the same backend.
  let single: SearchApp | undefined;
  try {
    const before = await databaseBytes(input.databaseUrl);
    const fleet = await buildFleet(bench, input.tenants, MEMORIES_PER_TENANT, new Date(), log);
    const after = await databaseBytes(input.databaseUrl);
    const relations = await relationsIn(input.databaseUrl, fleet.tenants[0]?.tenant.schema ?? '');
    const tenth = Math.max(1, Math.floor(fleet.provisioningMs.length / 10));
    const provisioning = {
      all: summarize(fleet.provisioningMs),
      firstTenth: summarize(fleet.provisioningMs.slice(0, tenth)),
      lastTenth: summarize(fleet.provisioningMs.slice(-tenth)),
    };

    log('  recall: a random tenant among all of them vs. among the first ten');
    const recall = await recallAcrossFleet(bench, fleet, ['keyword', 'hybrid'], [1, 8], input.load);

    single = await startSearchApp(input.databaseUrl, input.redisUrl, 'hash', {
      DATABASE_POOL_MAX: '1',
      DATABASE_POOL_MAX_LIFETIME_SECONDS: '0',
      // Unbounded, to show what the default bound of 100 tenants per connection prevents.
      DATABASE_POOL_TENANTS_PER_CONNECTION: '0',
    });
    log('  backend memory: one connection recalling in ever more tenants');
    const backendMemory = await backendMemoryAcrossFleet(
      single,
      fleet,
      CHECKPOINTS.filter((checkpoint) => checkpoint <= input.tenants),
    );
    await single.close();
    single = undefined;

    log('  npm run migrate over the fleet');
    const migration = await migrateFleet(input.root, input.databaseUrl, fleet.tenants, log, input.throwawayDatabase);
    const deprovisioningMs = await dropFleetSample(bench, fleet.tenants, DROPPED_SAMPLE, log);
    const data: FleetBenchData = {
      tenants: input.tenants,
      memoriesPerTenant: MEMORIES_PER_TENANT,
      provisioning,
      databaseBytes: { before, after, perTenant: (after - before) / input.tenants },
      relationsPerTenant: relations,
      seedSeconds: fleet.seedSeconds,
      recall,
      backendMemory,
      migration,
      deprovisioningMs: summarize(deprovisioningMs),
    };
    return { rows: fleetRows(data), data, notes: fleetNotes(data) };
  } finally {
    await single?.close();
    await bench.close();
  }
}

function fleetRows(data: FleetBenchData): ResultRow[] {
  const n = data.tenants.toLocaleString('en-US');
  const { provisioning, migration } = data;
  const firstTenth = { name: `first tenth of the fleet`, value: provisioning.firstTenth.p95 };
  const rows: ResultRow[] = [
    row(NAME, `POST /v1/tenants p50, last tenth of ${n}`, 'ms', provisioning.lastTenth.p50, {
      ...firstTenth,
      value: provisioning.firstTenth.p50,
    }),
    row(NAME, `POST /v1/tenants p95, last tenth of ${n} (goal ≤ 300 ms)`, 'ms', provisioning.lastTenth.p95, firstTenth),
    row(
      NAME,
      `database size per tenant (${data.memoriesPerTenant} memories each)`,
      'MiB',
      data.databaseBytes.perTenant / MIB,
    ),
  ];
  for (const result of data.recall) {
    const label = `${result.mode} recall c=${result.concurrency}, random tenant of ${n}`;
    const few = `random tenant of the first ${FEW_TENANTS}`;
    rows.push(
      row(NAME, `${label} p50`, 'ms', result.amongAll.latencyMs.p50, {
        name: few,
        value: result.amongFew.latencyMs.p50,
      }),
      row(NAME, `${label} p95`, 'ms', result.amongAll.latencyMs.p95, {
        name: few,
        value: result.amongFew.latencyMs.p95,
      }),
    );
  }
  const fresh = data.backendMemory[0];
  for (const step of data.backendMemory.slice(1)) {
    rows.push(
      row(NAME, `backend CacheMemoryContext ${step.label}`, 'MiB', step.cacheContextMiB, {
        name: 'fresh connection',
        value: fresh?.cacheContextMiB ?? null,
      }),
    );
    if (step.privateMiB !== null) {
      rows.push(
        row(NAME, `backend private memory ${step.label}`, 'MiB', step.privateMiB, {
          name: 'fresh connection',
          value: fresh?.privateMiB ?? null,
        }),
      );
    }
  }
  rows.push(row(NAME, `npm run migrate, ${n} tenants up to date`, 's', migration.upToDateSeconds));
  const change = migration.change;
  if (change) {
    const floor = { name: 'bare SQL, one client, same change', value: change.baselineSeconds };
    rows.push(
      row(
        NAME,
        `schema change over ${n} tenants, killed halfway + resumed`,
        's',
        change.killedAfter.seconds + change.resumed.seconds,
        floor,
      ),
      row(NAME, `tenants at the new version after the resumed run`, '%', (100 * change.verified) / data.tenants),
    );
  }
  rows.push(
    row(NAME, `DELETE /v1/tenants p50, ${DROPPED_SAMPLE} of ${n} standing`, 'ms', data.deprovisioningMs.p50),
    row(NAME, `DELETE /v1/tenants p95, ${DROPPED_SAMPLE} of ${n} standing`, 'ms', data.deprovisioningMs.p95),
  );
  return rows;
}

function fleetNotes(data: FleetBenchData): string[] {
  const { migration } = data;
  return [
    `tenant fleet: ${data.tenants} tenants made through POST /v1/tenants one at a time, each with one project and ` +
      `${data.memoriesPerTenant} memories (bulk insert + EmbeddingProcessor, hash embedder) in ` +
      `${data.seedSeconds.toFixed(0)} s; ${data.relationsPerTenant} relations per tenant schema; database ` +
      `${(data.databaseBytes.before / MIB).toFixed(0)} → ${(data.databaseBytes.after / MIB).toFixed(0)} MiB`,
    `tenant fleet migrate: ${migration.upToDateSummary}; ` +
      (migration.change
        ? `schema change killed after ${migration.change.killedAfter.reported} tenants, the rerun migrated ` +
          `${migration.change.resumed.migrated}, found ${migration.change.resumed.upToDate} up to date, ` +
          `${migration.change.resumed.failed} failed; ${migration.change.verified} of ${data.tenants} at the new version`
        : 'schema change skipped (a given DATABASE_URL: it would reach every tenant in it)'),
    `tenant fleet backend memory: ${data.backendMemory
      .map(
        (step) =>
          `${step.label}: cache ${step.cacheContextMiB.toFixed(1)} MiB` +
          (step.privateMiB === null ? '' : `, private ${step.privateMiB.toFixed(0)} MiB`),
      )
      .join('; ')}`,
  ];
}

async function databaseBytes(databaseUrl: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('CHECKPOINT').catch(() => undefined);
    const result = await client.query<{ bytes: string }>(`SELECT pg_database_size(current_database()) AS bytes`);
    return Number(result.rows[0]?.bytes ?? 0);
  } finally {
    await client.end();
  }
}

async function relationsIn(databaseUrl: string, schema: string): Promise<number> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const result = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1`,
      [schema],
    );
    return result.rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}
