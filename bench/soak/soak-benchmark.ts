/**
 * `npm run bench -- --only soak [--soak-minutes N]`: one gateway and one worker (the built
 * apps, own processes) under MCP load at half of what the gateway sustains, for 30 minutes by
 * default. Every sample interval: calls, errors and p95 of the window, each process's resident
 * memory and event-loop lag (its /metrics), the embedding queue's depth and PostgreSQL's
 * connections. Goals: no failed call, and each process's memory after warm-up within 10 % of
 * where warm-up left it. Figures in the table and JSON, the series as SVG charts beside them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { JobQueue } from '@cairn/jobs';
import { freePort } from '../gateway/processes';
import { databaseSettings } from '../lib/environment';
import { type ResultRow, row } from '../lib/report';
import { percentile } from '../lib/stats';
import { Replica } from '../replicas/replica-set';
import { createSearchTenant, dropSearchTenant, startSearchApp } from '../search/fixture';
import { type Chart, type SeriesPoint, writeCharts } from './soak-charts';
import { measureCapacity, OpenLoop, type SoakCall } from './soak-load';

const NAME = 'soak';
const CAPACITY_CLIENTS = 16;
const CAPACITY_SECONDS = 15;

export interface SoakBenchInput {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly root: string;
  readonly minutes: number;
  /** Directory the charts go to (bench/results/soak/<run>). */
  readonly chartsDir: string;
  readonly log: (line: string) => void;
}

interface Sample {
  readonly t: number;
  readonly calls: number;
  readonly errors: number;
  readonly p95Ms: number;
  readonly rssMiB: Record<string, number>;
  /** V8 heap in use: tells a leak from the allocator keeping pages (resident memory alone cannot). */
  readonly heapUsedMiB: Record<string, number>;
  readonly lagP99Ms: Record<string, number>;
  readonly queueDepth: number | null;
  readonly connections: number;
}

function rssMiB(pid: number | undefined): number {
  if (pid === undefined) return Number.NaN;
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** prom-client's default nodejs_eventloop_lag_p99_seconds, from the process's own /metrics. */
/** A process's event-loop lag p99 and V8 heap in use, from its own /metrics (prom-client's default metrics). */
async function runtimeMetrics(replica: Replica): Promise<{ lagP99Ms: number; heapUsedMiB: number }> {
  const text = await fetch(`${replica.url}/metrics`, { signal: AbortSignal.timeout(5_000) })
    .then((response) => response.text())
    .catch(() => '');
  const gauge = (name: string) => {
    const value = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text)?.[1];
    return value === undefined ? Number.NaN : Number(value);
  };
  return {
    lagP99Ms: gauge('nodejs_eventloop_lag_p99_seconds') * 1000,
    heapUsedMiB: gauge('nodejs_heap_size_used_bytes') / 1024 / 1024,
  };
}

async function runtimeSamples(
  replicas: Record<string, Replica>,
): Promise<{ lagP99Ms: Record<string, number>; heapUsedMiB: Record<string, number> }> {
  const lagP99Ms: Record<string, number> = {};
  const heapUsedMiB: Record<string, number> = {};
  for (const [name, replica] of Object.entries(replicas)) {
    const metrics = await runtimeMetrics(replica);
    lagP99Ms[name] = metrics.lagP99Ms;
    heapUsedMiB[name] = metrics.heapUsedMiB;
  }
  return { lagP99Ms, heapUsedMiB };
}

export async function benchSoak(input: SoakBenchInput): Promise<{ rows: ResultRow[]; notes: string[]; data: unknown }> {
  const { log } = input;
  const bench = await startSearchApp(input.databaseUrl, input.redisUrl);
  const tenant = await createSearchTenant(bench, 'soak');
  const masterKey = bench.config.secrets.masterKey?.toString('base64') ?? '';
  const common = {
    NODE_ENV: 'production',
    ...databaseSettings(input.databaseUrl),
    DATABASE_POOL_MAX: '10',
    REDIS_URL: input.redisUrl,
    QUEUE_PREFIX: bench.queuePrefix,
    CAIRN_MASTER_KEY: masterKey,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
    RATE_LIMIT_TENANT_PER_MINUTE: '10000000',
  };
  const gateway = new Replica('mcp-gateway', 'gateway', await freePort(), input.root, common);
  const worker = new Replica('worker', 'worker', await freePort(), input.root, common);
  const processes = { gateway, worker };
  let load: OpenLoop | undefined;
  try {
    await gateway.start();
    await worker.start();
    const target = { url: gateway.url, token: tenant.token, project: tenant.projectSlug };
    log(`soak: measuring one gateway's capacity (${CAPACITY_CLIENTS} clients, ${CAPACITY_SECONDS} s)`);
    const capacity = await measureCapacity(target, CAPACITY_CLIENTS, CAPACITY_SECONDS);
    const rate = Math.max(1, Math.round(capacity / 2));
    const totalMs = input.minutes * 60_000;
    const sampleMs = Math.min(30_000, Math.max(5_000, totalMs / 60));
    const warmupMs = Math.min(5 * 60_000, totalMs / 5);
    log(
      `soak: capacity ${capacity.toFixed(0)} calls/s; ${rate} calls/s for ${input.minutes} min, a sample every ${sampleMs / 1000} s`,
    );

    const queue = bench.app.get(JobQueue, { strict: false });
    load = new OpenLoop(target, rate);
    const samples: Sample[] = [];
    const began = performance.now();
    load.start();
    let windowStart = began;
    while (performance.now() - began < totalMs) {
      await new Promise((resolve) => setTimeout(resolve, sampleMs));
      const now = performance.now();
      const window = load.calls.filter((c) => c.endedAt >= windowStart && c.endedAt < now);
      const [connections] = await bench.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database()`,
      );
      samples.push({
        t: (now - began) / 1000,
        calls: window.length,
        errors: window.filter((c) => c.failed).length,
        p95Ms: percentile(
          window.map((c) => c.endedAt - c.startedAt).sort((a, b) => a - b),
          95,
        ),
        rssMiB: { gateway: rssMiB(gateway.pid), worker: rssMiB(worker.pid) },
        ...(await runtimeSamples({ gateway, worker })),
        queueDepth: await queue.pendingCount('embeddings'),
        connections: connections?.n ?? 0,
      });
      windowStart = now;
    }
    await load.stop();
    const calls = load.calls;
    load = undefined;
    for (const [name, replica] of Object.entries(processes)) {
      if (!replica.running) throw new Error(`the ${name} died during the soak`);
    }
    const charts = await writeCharts(input.chartsDir, soakCharts(samples));
    log(`soak: charts in ${input.chartsDir}`);
    return summarise(samples, calls, { capacity, rate, warmupMs, sampleMs, minutes: input.minutes, charts });
  } finally {
    await load?.stop();
    await gateway.stop().catch(() => undefined);
    await worker.stop().catch(() => undefined);
    await dropSearchTenant(bench, tenant).catch(() => undefined);
    await bench.close();
  }
}

function soakCharts(samples: readonly Sample[]): Chart[] {
  const per = (pick: (s: Sample) => Record<string, number>): SeriesPoint[] =>
    samples.flatMap((s) => Object.entries(pick(s)).map(([series, value]) => ({ t: s.t, series, value })));
  const one = (series: string, pick: (s: Sample) => number | null): SeriesPoint[] =>
    samples.map((s) => ({ t: s.t, series, value: pick(s) ?? Number.NaN }));
  return [
    { file: 'latency-p95.svg', title: 'MCP call p95 per sample', unit: 'ms', points: one('p95', (s) => s.p95Ms) },
    {
      file: 'errors.svg',
      title: 'Failed calls per sample',
      unit: 'calls',
      points: [...one('failed', (s) => s.errors), ...one('answered', (s) => s.calls)],
    },
    { file: 'rss.svg', title: 'Resident memory per process', unit: 'MiB', points: per((s) => s.rssMiB) },
    { file: 'heap-used.svg', title: 'V8 heap in use per process', unit: 'MiB', points: per((s) => s.heapUsedMiB) },
    { file: 'event-loop-lag.svg', title: 'Event-loop lag p99 per process', unit: 'ms', points: per((s) => s.lagP99Ms) },
    {
      file: 'queue-depth.svg',
      title: 'Embedding jobs waiting',
      unit: 'jobs',
      points: one('embeddings', (s) => s.queueDepth),
    },
    {
      file: 'pg-connections.svg',
      title: 'PostgreSQL connections',
      unit: 'connections',
      points: one('all', (s) => s.connections),
    },
  ];
}

function summarise(
  samples: readonly Sample[],
  calls: readonly SoakCall[],
  run: { capacity: number; rate: number; warmupMs: number; sampleMs: number; minutes: number; charts: string[] },
): { rows: ResultRow[]; notes: string[]; data: unknown } {
  const failed = calls.filter((c) => c.failed);
  const afterWarmup = samples.filter((s) => s.t * 1000 >= run.warmupMs);
  const firstAfter = afterWarmup[0];
  const last = samples[samples.length - 1];
  const rows: ResultRow[] = [
    row(
      NAME,
      `calls at ${run.rate}/s for ${run.minutes} min (half of one gateway's ${run.capacity.toFixed(0)}/s)`,
      'calls/s',
      calls.length / (run.minutes * 60),
    ),
    row(NAME, 'failed calls (goal 0)', '%', calls.length > 0 ? (100 * failed.length) / calls.length : 0),
  ];
  if (firstAfter && last) {
    const warm = { name: 'first sample after warm-up', value: firstAfter.p95Ms };
    rows.push(row(NAME, 'MCP call p95, last sample', 'ms', last.p95Ms, warm));
    for (const name of Object.keys(last.rssMiB)) {
      rows.push(
        row(NAME, `${name} resident memory, last sample (goal < 1.10x)`, 'MiB', last.rssMiB[name] ?? Number.NaN, {
          name: 'first sample after warm-up',
          value: firstAfter.rssMiB[name] ?? null,
        }),
      );
      rows.push(
        row(NAME, `${name} V8 heap in use, last sample`, 'MiB', last.heapUsedMiB[name] ?? Number.NaN, {
          name: 'first sample after warm-up',
          value: firstAfter.heapUsedMiB[name] ?? null,
        }),
      );
      const lags = samples.map((s) => s.lagP99Ms[name] ?? Number.NaN).filter(Number.isFinite);
      rows.push(row(NAME, `${name} event-loop lag p99, worst sample`, 'ms', Math.max(...lags)));
    }
  }
  const reasons: Record<string, number> = {};
  for (const call of failed) reasons[call.reason ?? '?'] = (reasons[call.reason ?? '?'] ?? 0) + 1;
  const notes = [
    `soak: ${calls.length} calls (3 memory_recall : 1 memory_store, open loop), ${failed.length} failed` +
      (failed.length > 0 ? ` (${JSON.stringify(reasons)})` : '') +
      `; warm-up ${(run.warmupMs / 1000).toFixed(0)} s; max queue depth ${Math.max(...samples.map((s) => s.queueDepth ?? 0))}; ` +
      `PostgreSQL connections ${Math.min(...samples.map((s) => s.connections))}–${Math.max(...samples.map((s) => s.connections))}; ` +
      `charts: ${run.charts.map((file) => join('bench/results', file.split('bench/results/')[1] ?? file)).join(', ')}`,
  ];
  const goals = { noFailedCalls: failed.length === 0 };
  return { rows, notes, data: { ...run, samples, failed: failed.length, reasons, goals, rssUnit: 'MiB' } };
}
