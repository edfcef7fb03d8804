/**
 * Store → searchable by meaning (issue 26): a burst of memories stored through the real write
 * path (REST on the api app, `app.inject`) at a fixed concurrency, with the built worker
 * (`dist/apps/worker`) consuming the embedding queue in a process of its own, as deployed: in
 * one process, the local model's inferences (synchronous in onnxruntime-node) would hold the
 * api's event loop whichever app ran them. For
 * each memory: the time from the store call's start until a semantic-only recall of its own
 * text returns it. Measured with inline embedding on and, as the in-run baseline, off.
 */
import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { EMBEDDER, type Embedder } from '@cairn/embeddings';
import { JobQueue, QUEUE_NAMES } from '@cairn/jobs';
import { MetricsService } from '@cairn/observability';
import { DataSource } from 'typeorm';
import { type Provider, providerEnv } from '../eval/provider';
import { type BenchApp, startApiApp } from '../lib/app';
import { type ResultRow, row } from '../lib/report';
import { type LatencySummary, summarize } from '../lib/stats';
import { type ChildServer, startWorkerProcess } from '../gateway/processes';
import { inParallel, poll } from '../pipeline/fixture';
import { corpusMemory } from '../search/corpus';
import { databaseSettings } from '../lib/environment';

const INLINE_SETTINGS = ['EMBEDDING_INLINE_MAX_CHARS', 'EMBEDDING_INLINE_BUDGET_MS', 'EMBEDDING_INLINE_MAX_IN_FLIGHT'];
/** A memory not found by meaning within this long counts as never found (and fails the run). */
const GIVE_UP_MS = 120_000;
/** Pause between a lane's recalls while it waits for a vector. */
const RECALL_INTERVAL_MS = 20;
/** Corpus offset: texts of their own, unlike the other benchmarks' seeds. */
const CORPUS_OFFSET = 7_000_000;

export interface FreshnessBenchInput {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly root: string;
  /** The run's api app: its master key is the one every app on this database must share. */
  readonly bench: BenchApp;
  readonly stores: number;
  readonly concurrency: number;
  readonly providers: readonly Provider[];
  readonly log: (line: string) => void;
}

interface Run {
  readonly provider: Provider;
  readonly inline: boolean;
  readonly stores: number;
  readonly concurrency: number;
  /** Store call start → first semantic-only recall that returned the memory. */
  readonly searchableMs: LatencySummary;
  /** The store call alone (it waits for the inline embed, up to the budget). */
  readonly storeMs: LatencySummary;
  /** Found by the first recall right after the store answered. */
  readonly foundAtOnce: number;
  /** Inline outcomes counted by the api (`cairn_embedding_inline_total`); the rest waited for the queue. */
  readonly inlineOutcomes: Record<string, number>;
  readonly embeddedInline: number;
  readonly embeddedByQueue: number;
  readonly notFound: number;
  readonly seconds: number;
  readonly loadAverage: readonly number[];
}

export async function benchFreshness(
  input: FreshnessBenchInput,
): Promise<{ rows: ResultRow[]; notes: string[]; data: unknown }> {
  const runs: Run[] = [];
  for (const provider of input.providers) {
    const env = await providerEnv(provider, input.root);
    // Inline first, then the queue-only baseline, each on a tenant, app and worker of its own.
    for (const inline of [true, false]) runs.push(await measure(input, provider, inline, env));
  }
  const rows: ResultRow[] = [];
  for (const provider of input.providers) {
    const on = runs.find((run) => run.provider === provider && run.inline)!;
    const off = runs.find((run) => run.provider === provider && !run.inline)!;
    const name = `freshness (${provider}, ${on.stores} stores, c=${on.concurrency})`;
    const baseline = (value: number) => ({ name: 'inline off', value });
    rows.push(
      row(name, 'store → semantic p50', 'ms', on.searchableMs.p50, baseline(off.searchableMs.p50)),
      row(name, 'store → semantic p95', 'ms', on.searchableMs.p95, baseline(off.searchableMs.p95)),
      row(name, 'store → semantic max', 'ms', on.searchableMs.max, baseline(off.searchableMs.max)),
      row(
        name,
        'found at once',
        '%',
        (100 * on.foundAtOnce) / on.stores,
        baseline((100 * off.foundAtOnce) / off.stores),
      ),
      row(name, 'store answer p95', 'ms', on.storeMs.p95, baseline(off.storeMs.p95)),
    );
  }
  const notes = runs.map(
    (run) =>
      `freshness ${run.provider} inline ${run.inline ? 'on' : 'off'}: ${run.embeddedInline} embedded inline, ` +
      `${run.embeddedByQueue} by the queue (inline outcomes ${JSON.stringify(run.inlineOutcomes)})` +
      (run.notFound > 0 ? `, ${run.notFound} NOT FOUND within ${GIVE_UP_MS / 1000} s` : ''),
  );
  notes.push(
    'freshness: one api app (app.inject) in this process, the built worker (dist/apps/worker) in its own; ' +
      'each lane stores, then recalls (mode semantic, its own text) every 20 ms until the memory comes back',
  );
  const settings = Object.fromEntries(INLINE_SETTINGS.map((name) => [name, process.env[name] ?? 'default']));
  notes.push(`freshness: inline settings ${JSON.stringify(settings)}`);
  return { rows, notes, data: { runs, giveUpMs: GIVE_UP_MS, settings } };
}

async function measure(
  input: FreshnessBenchInput,
  provider: Provider,
  inline: boolean,
  providerSettings: Record<string, string>,
): Promise<Run> {
  const began = performance.now();
  const env = {
    ...providerSettings,
    // Shared by the api and the worker, as replicas of one deployment share them.
    CAIRN_MASTER_KEY: (input.bench.config.secrets.masterKey ?? randomBytes(32)).toString('base64'),
    QUEUE_PREFIX: `fresh${randomBytes(4).toString('hex')}`,
    EMBEDDING_INLINE: inline ? 'true' : 'false',
    // The inline settings of the environment, if any, for trying other values than the defaults.
    ...Object.fromEntries(INLINE_SETTINGS.flatMap((name) => (process.env[name] ? [[name, process.env[name]]] : []))),
  };
  input.log(`freshness ${provider} inline ${inline ? 'on' : 'off'}: ${input.stores} stores at c=${input.concurrency}`);
  const bench = await startApiApp(input.databaseUrl, input.redisUrl, env);
  let worker: ChildServer | undefined;
  try {
    const target = await createTarget(bench);
    worker = await startWorkerProcess(input.root, {
      NODE_ENV: 'production',
      ...databaseSettings(input.databaseUrl),
      REDIS_URL: input.redisUrl,
      LOG_LEVEL: 'silent',
      ...env,
    });
    const modelId = bench.app.get<Embedder>(EMBEDDER, { strict: false }).model.id;
    await waitForRollout(bench, target.schema, modelId);
    const searchable: number[] = [];
    const storing: number[] = [];
    let foundAtOnce = 0;
    let notFound = 0;
    const indexes = Array.from({ length: input.stores }, (_, i) => i);
    const burstBegan = performance.now();
    await inParallel(indexes, input.concurrency, async (i) => {
      const content = `${corpusMemory(CORPUS_OFFSET + i).content} (freshness probe ${i})`;
      const start = performance.now();
      const stored = await bench.client.expectJson<{ memory: { id: string } }>(
        201,
        'POST',
        `/v1/projects/${target.project}/memories`,
        target.token,
        { content },
      );
      storing.push(performance.now() - start);
      for (let attempt = 0; ; attempt += 1) {
        const found = await bench.client.expectJson<{ results: { memory: { id: string } }[] }>(
          200,
          'POST',
          `/v1/projects/${target.project}/memories/search`,
          target.token,
          { query: content, mode: 'semantic', limit: 10 },
        );
        if (found.results.some((hit) => hit.memory.id === stored.memory.id)) {
          searchable.push(performance.now() - start);
          if (attempt === 0) foundAtOnce += 1;
          return;
        }
        if (performance.now() - start > GIVE_UP_MS) {
          notFound += 1;
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, RECALL_INTERVAL_MS));
      }
    });
    input.log(`  burst done in ${((performance.now() - burstBegan) / 1000).toFixed(1)} s`);
    if (notFound > 0) process.exitCode = 1;
    const inlineOutcomes = await inlineCounts(bench);
    const embeddedInline = inlineOutcomes.done ?? 0;
    return {
      provider,
      inline,
      stores: input.stores,
      concurrency: input.concurrency,
      searchableMs: summarize(searchable),
      storeMs: summarize(storing),
      foundAtOnce,
      inlineOutcomes,
      embeddedInline,
      embeddedByQueue: input.stores - embeddedInline,
      notFound,
      seconds: (performance.now() - began) / 1000,
      loadAverage: loadavg(),
    };
  } finally {
    await worker?.stop();
    const queues = bench.app.get(JobQueue, { strict: false });
    for (const name of QUEUE_NAMES) {
      await queues
        .queue(name)
        .obliterate({ force: true })
        .catch(() => undefined);
    }
    await bench.app.close();
  }
}

interface Target {
  readonly schema: string;
  readonly project: string;
  readonly token: string;
}

/** A tenant, a project and an agent's token, through the admin API. */
async function createTarget(bench: BenchApp): Promise<Target> {
  const { client, adminToken } = bench;
  const slug = `bench-fresh-${randomBytes(4).toString('hex')}`;
  const tenant = await client.expectJson<{ schema: string }>(201, 'POST', '/v1/tenants', adminToken, {
    slug,
    name: 'Freshness benchmark',
  });
  await client.expectJson(201, 'POST', `/v1/tenants/${slug}/projects`, adminToken, { slug: 'fresh', name: 'Fresh' });
  const { token } = await client.expectJson<{ token: string }>(201, 'POST', `/v1/tenants/${slug}/tokens`, adminToken, {
    agentId: 'bench:freshness',
    role: 'agent',
    projects: ['fresh'],
  });
  return { schema: tenant.schema, project: 'fresh', token };
}

/** The worker's start-up rollout in the new tenant (index built, empty backfill done) is over. */
async function waitForRollout(bench: BenchApp, schema: string, modelId: string): Promise<void> {
  const dataSource = bench.app.get(DataSource, { strict: false });
  await poll(
    async () => {
      const [row] = await dataSource.query<{ status: string }[]>(
        `SELECT status FROM "${schema}".embedding_backfills WHERE model = $1`,
        [modelId],
      );
      return row?.status === 'done' ? true : undefined;
    },
    60_000,
    `the rollout of ${modelId}`,
  );
}

async function inlineCounts(bench: BenchApp): Promise<Record<string, number>> {
  const metric = bench.app
    .get(MetricsService, { strict: false })
    .registry.getSingleMetric('cairn_embedding_inline_total');
  const { values } = (await metric?.get()) ?? { values: [] };
  return Object.fromEntries(values.map((sample) => [String(sample.labels.outcome), sample.value]));
}
