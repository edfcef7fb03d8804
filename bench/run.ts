/**
 * `npm run bench`: every benchmark against its baseline measured in the same run, a table
 * on screen and the numbers as JSON under bench/results/. Performance is measured here,
 * never by timed assertions in tests.
 */
import 'reflect-metadata';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type BenchApp, startApiApp } from './lib/app';
import { type BenchName, type BenchOptions, parseArgs, USAGE, UsageError } from './lib/args';
import { type BenchEnvironment, prepareEnvironment } from './lib/environment';
import { gitCommit, machineInfo, renderTable, repositoryRoot, type ResultRow, writeResults } from './lib/report';
import { benchBroadcast } from './broadcast-throughput';
import { benchGateway } from './gateway/gateway-benchmark';
import { benchHarness } from './harness/harness-benchmark';
import { benchHooks } from './hooks/hooks-benchmark';
import { benchPipeline } from './pipeline/pipeline-benchmark';
import { benchFairness } from './fairness/fairness-benchmark';
import { benchFreshness } from './freshness/freshness-benchmark';
import { benchFleet } from './fleet/fleet-benchmark';
import { benchReplicas } from './replicas/replicas-benchmark';
import { benchSoak } from './soak/soak-benchmark';
import { benchDuplicates } from './search/duplicates-benchmark';
import { benchScopes } from './search/scopes-benchmark';
import { benchSearch } from './search/search-benchmark';
import { benchScale } from './scale/scale-benchmark';
import { benchTenantProvisioning } from './tenant-provisioning';
import { benchTokenVerification } from './token-verification';

const TRANSPORT = 'app.inject (in-process Fastify, no sockets)';

const log = (line: string): void => {
  process.stderr.write(`[bench] ${line}\n`);
};

/** Cleanups run last-registered first, each exactly once, whatever happened before. */
class CleanupStack {
  private readonly steps: { name: string; run: () => Promise<void> }[] = [];
  private running: Promise<void> | undefined;

  push(name: string, run: () => Promise<void>): void {
    this.steps.push({ name, run });
  }

  /** True once cleanup has started (normal end or a signal); results are no longer trustworthy. */
  get begun(): boolean {
    return this.running !== undefined;
  }

  runAll(): Promise<void> {
    this.running ??= (async () => {
      for (const step of this.steps.reverse()) {
        try {
          await step.run();
        } catch (error) {
          log(`cleanup "${step.name}" failed: ${error instanceof Error ? error.message : String(error)}`);
          process.exitCode = 1;
        }
      }
    })();
    return this.running;
  }
}

interface Outcome {
  readonly rows: ResultRow[];
  readonly data: unknown;
  /** Lines printed under the table (how a benchmark was measured). */
  readonly notes?: string[];
}

async function main(options: BenchOptions, cleanups: CleanupStack): Promise<void> {
  const startedAt = new Date();
  const loadAverageAtStart = loadavg();
  const started = performance.now();
  const root = repositoryRoot(__dirname);
  const rows: ResultRow[] = [];
  const results: Record<string, unknown> = {};
  const failures: Record<string, string> = {};
  const notes: string[] = [];
  const selected = (name: BenchName) => !options.only || options.only.includes(name);

  const environment: BenchEnvironment = await prepareEnvironment(
    log,
    (cleanup) => cleanups.push('database/services', cleanup),
    { pgbouncer: options.pgbouncer },
  );
  log(
    `PostgreSQL ${environment.serverVersion} (${environment.source}, pooler: ${environment.pooler}); building the api app`,
  );
  const bench: BenchApp = await startApiApp(environment.databaseUrl, environment.redisUrl);
  cleanups.push('api app', () => bench.app.close());

  const runOne = async (name: string, work: () => Promise<Outcome>): Promise<void> => {
    log(`running ${name}`);
    const begin = performance.now();
    try {
      const outcome = await work();
      rows.push(...outcome.rows);
      notes.push(...(outcome.notes ?? []));
      results[name] = outcome.data;
      log(`${name} done in ${((performance.now() - begin) / 1000).toFixed(1)} s`);
    } catch (error) {
      failures[name] = error instanceof Error ? (error.stack ?? error.message) : String(error);
      log(`${name} FAILED: ${error instanceof Error ? error.message : String(error)}`);
      process.exitCode = 1;
    }
  };

  if (selected('tenants')) {
    await runOne('tenantProvisioning', () =>
      benchTenantProvisioning({
        client: bench.client,
        adminToken: bench.adminToken,
        databaseUrl: environment.databaseUrl,
        tenants: options.tenants,
      }),
    );
  }
  const load = { concurrency: options.concurrency, seconds: options.seconds, warmupSeconds: options.warmupSeconds };
  if (selected('tokens')) await runOne('tokenVerification', () => benchTokenVerification({ bench, load }));
  if (selected('broadcast')) await runOne('broadcast', () => benchBroadcast({ bench, load }));
  if (selected('search')) {
    for (const provider of options.searchProviders) {
      await runOne(provider === 'hash' ? 'search' : 'searchLocalModel', () =>
        benchSearch({
          databaseUrl: environment.databaseUrl,
          redisUrl: environment.redisUrl,
          root,
          sizes: options.sizes,
          provider,
          log,
        }),
      );
    }
  }

  // Only when named: at its default size (a million memories) it runs for hours.
  if (options.only?.includes('scale')) {
    await runOne('scale', () =>
      benchScale({
        databaseUrl: environment.databaseUrl,
        redisUrl: environment.redisUrl,
        root,
        memories: options.scaleMemories,
        modelSubset: options.scaleModelSubset,
        highConcurrency: options.scaleConcurrency,
        log,
      }),
    );
  }

  if (selected('duplicates')) {
    await runOne('duplicates', () =>
      benchDuplicates({
        databaseUrl: environment.databaseUrl,
        redisUrl: environment.redisUrl,
        sizes: options.sizes,
        log,
      }),
    );
  }

  if (selected('scopes')) {
    await runOne('scopes', () =>
      benchScopes({
        databaseUrl: environment.databaseUrl,
        redisUrl: environment.redisUrl,
        sizes: options.sizes,
        load,
        log,
      }),
    );
  }

  if (selected('pipeline')) {
    await runOne('pipeline', () =>
      benchPipeline({
        databaseUrl: environment.databaseUrl,
        redisUrl: environment.redisUrl,
        bench,
        items: options.pipelineItems,
        latencyMs: options.pipelineLatencyMs,
        slots: options.pipelineSlots,
        concurrencies: options.pipelineConcurrency,
        log,
      }),
    );
  }

  if (selected('gateway')) {
    await runOne('gateway', () =>
      benchGateway({
        databaseUrl: environment.databaseUrl,
        redisUrl: environment.redisUrl,
        root,
        memories: options.gatewayMemories,
        concurrencies: options.gatewayConcurrency,
        seconds: options.seconds,
        warmupSeconds: options.warmupSeconds,
        cpuProfile: options.gatewayProfile,
        tools: options.gatewayTools,
        compareRoot: options.gatewayCompare,
        log,
      }),
    );
  }

  if (selected('hooks')) {
    await runOne('hooks', () =>
      benchHooks({
        databaseUrl: environment.databaseUrl,
        redisUrl: environment.redisUrl,
        root,
        memories: options.hooksMemories,
        runs: options.hooksRuns,
        log,
      }),
    );
  }

  if (selected('harness')) {
    await runOne('harness', () =>
      benchHarness({
        databaseUrl: environment.databaseUrl,
        redisUrl: environment.redisUrl,
        root,
        names: options.harnessNames,
        questions: options.harnessQuestions,
        log,
      }),
    );
  }

  if (selected('freshness')) {
    await runOne('freshness', () =>
      benchFreshness({
        databaseUrl: environment.databaseUrl,
        redisUrl: environment.redisUrl,
        root,
        bench,
        stores: options.freshnessStores,
        concurrency: options.concurrency,
        providers: options.freshnessProviders,
        log,
      }),
    );
  }
  if (selected('fairness')) {
    await runOne('fairness', () =>
      benchFairness({
        databaseUrl: environment.databaseUrl,
        redisUrl: environment.redisUrl,
        bench,
        items: options.fairnessItems,
        writes: options.fairnessWrites,
        writeRate: options.fairnessWriteRate,
        concurrency: options.fairnessConcurrency,
        latencyMs: options.pipelineLatencyMs,
        log,
      }),
    );
  }

  if (selected('replicas')) {
    await runOne('replicas', () =>
      benchReplicas({
        databaseUrl: environment.databaseUrl,
        redisUrl: environment.redisUrl,
        root,
        clients: options.replicasClients,
        burst: options.replicasBurst,
        log,
      }),
    );
  }

  if (selected('soak')) {
    await runOne('soak', () =>
      benchSoak({
        databaseUrl: environment.databaseUrl,
        redisUrl: environment.redisUrl,
        root,
        minutes: options.soakMinutes,
        chartsDir: join(root, 'bench/results/soak', startedAt.toISOString().replace(/:/g, '-')),
        log,
      }),
    );
  }

  // Last: its schema-change step leaves every tenant of the database one version ahead of the product.
  if (selected('tenants')) {
    await runOne('tenantFleet', () =>
      benchFleet({
        root,
        databaseUrl: environment.databaseUrl,
        redisUrl: environment.redisUrl,
        tenants: options.fleetTenants,
        throwawayDatabase: environment.source === 'ephemeral services',
        load: { seconds: options.seconds, warmupSeconds: options.warmupSeconds },
        log,
      }),
    );
  }

  if (cleanups.begun) {
    log('interrupted: no results printed or written');
    return;
  }
  const durationSeconds = (performance.now() - started) / 1000;
  const machine = machineInfo();
  const header = [
    `Cairn benchmarks — ${startedAt.toISOString()} — ratio = value / baseline, both measured in this run`,
    `transport: ${TRANSPORT}; PostgreSQL ${environment.serverVersion} (${environment.source}, pooler: ${environment.pooler}), ` +
      `app pool max ${bench.config.database.poolMax}`,
    `tenants: ${options.tenants} sequential, interleaved with the baseline; throughput cases: ` +
      `${options.warmupSeconds} s warm-up, then ${options.seconds} s each in interleaved 0.5 s slices, ` +
      `${options.concurrency} in flight (closed loop)`,
    `node ${process.version}, ${machine.cpuCount} CPUs, 1-min load average at start ` +
      `${loadAverageAtStart[0]?.toFixed(2) ?? '?'}`,
  ].join('\n');
  process.stdout.write(`\n${header}\n\n${renderTable(rows)}\n\n`);
  for (const note of notes) process.stdout.write(`${note}\n`);
  if (notes.length > 0) process.stdout.write('\n');
  for (const [name, message] of Object.entries(failures)) process.stdout.write(`FAILED ${name}: ${message}\n\n`);

  const written = writeResults(root, startedAt.toISOString(), {
    timestamp: startedAt.toISOString(),
    durationSeconds,
    gitCommit: gitCommit(root),
    machine: { ...machine, loadAverageAtStart },
    parameters: options,
    environment: {
      transport: TRANSPORT,
      source: environment.source,
      postgres: environment.serverVersion,
      pooler: environment.pooler,
      database: environment.databaseName,
      logLevel: bench.config.log.level,
      poolMax: bench.config.database.poolMax,
    },
    rows,
    results,
    failures,
  });
  process.stdout.write(`results: ${written.file} (also ${written.latest})\n`);
  log(`benchmarks took ${durationSeconds.toFixed(1)} s`);
}

function start(): void {
  let options: BenchOptions | 'help';
  try {
    options = parseArgs(process.argv.slice(2));
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    process.stderr.write(`bench: ${error.message}\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  if (options === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return;
  }

  const cleanups = new CleanupStack();
  const interrupt = (signal: NodeJS.Signals): void => {
    log(`${signal}: cleaning up`);
    void cleanups.runAll().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);

  main(options, cleanups)
    .catch((error: unknown) => {
      log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      process.exitCode = 1;
    })
    .finally(() =>
      cleanups.runAll().then(() => {
        process.removeListener('SIGINT', interrupt);
        process.removeListener('SIGTERM', interrupt);
        // Everything is closed; if some handle still holds the loop open, say so and leave anyway.
        setTimeout(() => {
          log('a handle kept the process alive after cleanup; exiting');
          process.exit();
        }, 5_000).unref();
      }),
    )
    .catch(() => undefined);
}

start();
