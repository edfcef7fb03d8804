/**
 * The embedding pipeline: memories written and their embed jobs enqueued the way the write
 * path does it (one job per memory, `JobQueue.enqueueEmbedding`), consumed by the real worker
 * (`WorkerModule`, in-process) from an Ollama-speaking fake model server with a fixed latency
 * per request; at each worker concurrency, compared with the provider client called directly
 * at the same batch size and concurrency. See bench/pipeline/README.md.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { type INestApplicationContext } from '@nestjs/common';
import { OllamaClient } from '@cairn/providers';
import { type JobQueue } from '@cairn/jobs';
import { memoryEmbeddingText } from '@cairn/memory';
import { DataSource } from 'typeorm';
import { type FakeModelServer, startFakeModelServer } from '../../test/utils/fake-model-server';
import { type BenchApp } from '../lib/app';
import { type ResultRow, row } from '../lib/report';
import { type LatencySummary, summarize } from '../lib/stats';
import { corpusMemory } from '../search/corpus';
import {
  closeProducer,
  createPipelineTenant,
  DIMENSIONS,
  dropPipelineTenant,
  embeddedCount,
  embeddingsQueue,
  inParallel,
  insertRows,
  lags,
  MODEL,
  MODEL_ID,
  newRow,
  type NewRow,
  type PipelineTenant,
  poll,
  startProducer,
  startWorker,
  waitForRollout,
  workerConfig,
} from './fixture';
import { measureRawProvider, type RawThroughput } from './raw-provider';

/** Rows per INSERT while writing the burst; their jobs are enqueued right after it commits. */
const WRITE_CHUNK = 500;
/** Enqueues in flight while writing, as concurrent api requests would make them. */
const ENQUEUE_CONCURRENCY = 32;
/**
 * Ids per job in the batched reference: what the stale-embedding sweep put in one job when this was
 * measured (bulk jobs are BULK_JOB_SIZE, 64, since embedding-queue fairness; kept for comparable figures).
 */
const SWEEP_JOB_SIZE = 100;
/** The worker's EMBEDDING_BATCH_SIZE default: texts per provider call for multi-id jobs. */
const PROVIDER_BATCH = 32;
const RAW_SECONDS = 1.5;
const STEADY_SECONDS = 5;
/**
 * Memories per batched run at least: a few hundred ms of 100-id jobs would measure the
 * ramp-up, not the rate. With --pipeline-items above it, both shapes embed the same number.
 */
const BATCHED_MIN_ITEMS = 5_000;
/** Steady writes arrive at this share of the rate the worker drained the burst at. */
const STEADY_LOAD = 0.5;

export interface PipelineBenchInput {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly bench: BenchApp;
  readonly items: number;
  readonly latencyMs: number;
  /** Requests the model server works on at once; 0 for unlimited. */
  readonly slots: number;
  readonly concurrencies: readonly number[];
  readonly log: (line: string) => void;
}

type Mode = 'per-write' | 'sweep-batches';

interface Lag {
  readonly count: number;
  readonly ms: LatencySummary;
}

interface RunResult {
  readonly mode: Mode;
  readonly concurrency: number;
  readonly items: number;
  readonly jobs: number;
  /** Writing the rows and enqueueing their jobs (the worker already consuming). */
  readonly writeSeconds: number;
  /** From the first write to the last row embedded, as the benchmark saw it. */
  readonly drainSeconds: number;
  /** Items / (last embedded_at − first created_at): the worker's rate on PostgreSQL's clock. */
  readonly itemsPerSecond: number;
  readonly burstLag: Lag;
  readonly providerCalls: number;
  readonly meanItemsPerCall: number;
  readonly steady: (Lag & { readonly ratePerSecond: number; readonly seconds: number }) | null;
  readonly failedJobs: number;
  readonly loadAverage: readonly number[];
  readonly seconds: number;
}

interface Level {
  readonly concurrency: number;
  readonly raw: RawThroughput;
  readonly perWrite: RunResult;
  readonly rawBatched: RawThroughput;
  readonly batched: RunResult;
}

interface Shared {
  readonly input: PipelineBenchInput;
  readonly server: FakeModelServer;
  readonly dataSource: DataSource;
  /** Corpus offset of the next unused memory, so every run embeds texts of its own. */
  next: number;
}

export async function benchPipeline(
  input: PipelineBenchInput,
): Promise<{ rows: ResultRow[]; notes: string[]; data: unknown }> {
  const { log, latencyMs } = input;
  const began = performance.now();
  const slots = input.slots > 0 ? input.slots : undefined;
  const server = await startFakeModelServer({ dimensions: DIMENSIONS, models: [`${MODEL}:latest`], latencyMs, slots });
  try {
    const shared: Shared = { input, server, dataSource: input.bench.app.get(DataSource, { strict: false }), next: 0 };
    const client = new OllamaClient({ url: server.url, keepAlive: '5m', timeoutMs: 30_000 });
    const texts = Array.from({ length: 2_000 }, (_, i) => {
      const memory = corpusMemory(5_000_000 + i);
      return memoryEmbeddingText(memory.content, memory.keywords);
    });
    const levels: Level[] = [];
    for (const concurrency of input.concurrencies) {
      log(`pipeline c=${concurrency}: provider client alone, batch 1 and ${PROVIDER_BATCH}, ${RAW_SECONDS} s each`);
      const raw = await measureRawProvider(client, MODEL, texts, 1, concurrency, RAW_SECONDS);
      const rawBatched = await measureRawProvider(client, MODEL, texts, PROVIDER_BATCH, concurrency, RAW_SECONDS);
      const perWrite = await run(shared, 'per-write', concurrency);
      const batched = await run(shared, 'sweep-batches', concurrency);
      levels.push({ concurrency, raw, perWrite, rawBatched, batched });
    }
    const seconds = (performance.now() - began) / 1000;
    return {
      rows: levels.flatMap((level) => levelRows(level)),
      notes: notes(levels, input, seconds),
      data: {
        items: input.items,
        latencyMs,
        dimensions: DIMENSIONS,
        model: MODEL_ID,
        providerBatch: PROVIDER_BATCH,
        sweepJobSize: SWEEP_JOB_SIZE,
        steadyLoad: STEADY_LOAD,
        seconds,
        levels,
      },
    };
  } finally {
    await server.close();
  }
}

async function run(shared: Shared, mode: Mode, concurrency: number): Promise<RunResult> {
  const { input, server, dataSource } = shared;
  const { bench, log } = input;
  const items = mode === 'per-write' ? input.items : Math.max(input.items, BATCHED_MIN_ITEMS);
  const began = performance.now();
  const label = `pipeline c=${concurrency} ${mode}`;
  const target = await createPipelineTenant(bench);
  const config = workerConfig({
    databaseUrl: input.databaseUrl,
    redisUrl: input.redisUrl,
    modelUrl: server.url,
    concurrency,
    maxInFlight: input.slots > 0 ? input.slots : undefined,
    queuePrefix: `bench-pipe-${randomBytes(4).toString('hex')}`,
  });
  const producer = startProducer(config);
  let worker: INestApplicationContext | undefined;
  try {
    worker = await startWorker(config);
    await waitForRollout(dataSource, target);
    const rows = take(shared, items);
    const requestsBefore = server.requests.length;

    const begin = performance.now();
    let jobs = 0;
    for (let start = 0; start < rows.length; start += WRITE_CHUNK) {
      const chunk = rows.slice(start, start + WRITE_CHUNK);
      await insertRows(dataSource, target, chunk);
      if (mode === 'per-write') {
        await inParallel(chunk, ENQUEUE_CONCURRENCY, (one) => enqueueOne(producer, target, one));
        jobs += chunk.length;
      } else {
        for (let offset = 0; offset < chunk.length; offset += SWEEP_JOB_SIZE) {
          const ids = chunk.slice(offset, offset + SWEEP_JOB_SIZE).map((one) => one.id);
          const queued = await producer.enqueue(
            'embeddings',
            'embed',
            { tenantId: target.tenant.id, target: 'memory', ids, origin: 'bulk' },
            { jobId: `sweep-memory-${target.tenant.id}-bench-${start + offset}` },
          );
          if (!queued) throw new Error('could not enqueue an embed job');
          jobs += 1;
        }
      }
    }
    const writeSeconds = (performance.now() - begin) / 1000;
    log(`  ${label}: ${items} memories written, ${jobs} jobs enqueued in ${writeSeconds.toFixed(1)} s`);
    await waitUntilEmbedded(shared, target, items, label);
    const drainSeconds = (performance.now() - begin) / 1000;
    const burst = await lags(
      dataSource,
      target,
      rows.map((one) => one.id),
    );
    const calls = server.requests.slice(requestsBefore).filter((request) => request.path === '/api/embed');
    const called = calls.reduce((sum, request) => sum + textsIn(request.body), 0);
    await poll(
      async () => ((await embeddingsQueue(producer)).pending === 0 ? true : undefined),
      30_000,
      'the embeddings queue to drain',
    );
    const itemsPerSecond = items / (burst.spanMs / 1000);
    log(
      `  ${label}: embedded in ${drainSeconds.toFixed(1)} s, ${itemsPerSecond.toFixed(0)} memories/s, ` +
        `${calls.length} provider calls`,
    );

    const steady = mode === 'per-write' ? await steadyPhase(shared, producer, target, itemsPerSecond, label) : null;
    const { failed } = await embeddingsQueue(producer);
    if (failed > 0) throw new Error(`${label}: ${failed} embed jobs failed`);
    return {
      mode,
      concurrency,
      items,
      jobs,
      writeSeconds,
      drainSeconds,
      itemsPerSecond,
      burstLag: { count: burst.lagsMs.length, ms: summarize(burst.lagsMs) },
      providerCalls: calls.length,
      meanItemsPerCall: called / Math.max(1, calls.length),
      steady,
      failedJobs: failed,
      loadAverage: loadavg(),
      seconds: (performance.now() - began) / 1000,
    };
  } finally {
    await worker?.close();
    await closeProducer(producer);
    await dropPipelineTenant(bench, target);
  }
}

/**
 * Writes arriving one at a time at a fixed rate below what the worker can do (an open loop:
 * each write starts on schedule whatever the previous ones are doing), so the lag is the
 * pipeline's own rather than the time spent behind a backlog.
 */
async function steadyPhase(
  shared: Shared,
  producer: JobQueue,
  target: PipelineTenant,
  drainedPerSecond: number,
  label: string,
): Promise<Lag & { ratePerSecond: number; seconds: number }> {
  const { dataSource } = shared;
  const ratePerSecond = Math.max(1, drainedPerSecond * STEADY_LOAD);
  const count = Math.max(20, Math.round(ratePerSecond * STEADY_SECONDS));
  const rows = take(shared, count);
  const before = await embeddedCount(dataSource, target);
  const begin = performance.now();
  const writes: Promise<void>[] = [];
  for (const [index, one] of rows.entries()) {
    const wait = begin + (index * 1000) / ratePerSecond - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    writes.push(insertRows(dataSource, target, [one]).then(() => enqueueOne(producer, target, one)));
  }
  await Promise.all(writes);
  const seconds = (performance.now() - begin) / 1000;
  await waitUntilEmbedded(shared, target, before + count, `${label} steady`);
  const measured = await lags(
    dataSource,
    target,
    rows.map((one) => one.id),
  );
  shared.input.log(
    `  ${label}: steady ${ratePerSecond.toFixed(1)} writes/s for ${seconds.toFixed(1)} s, ` +
      `lag p50 ${summarize(measured.lagsMs).p50.toFixed(0)} ms`,
  );
  return { count, ms: summarize(measured.lagsMs), ratePerSecond, seconds };
}

/** What `MemoryWriter.store` does after its transaction commits: one job for the one memory. */
async function enqueueOne(producer: JobQueue, target: PipelineTenant, one: NewRow): Promise<void> {
  const queued = await producer.enqueueEmbedding(
    target.tenant.id,
    'memory',
    [{ id: one.id, contentHash: one.contentHash }],
    { origin: 'interactive' },
  );
  if (!queued) throw new Error('could not enqueue an embed job');
}

/** Texts in an `/api/embed` request body (the fake server logs bodies untyped). */
function textsIn(body: unknown): number {
  const input = (body as { input?: unknown } | undefined)?.input;
  return Array.isArray(input) ? input.length : 0;
}

function take(shared: Shared, count: number): NewRow[] {
  const start = shared.next;
  shared.next += count;
  return Array.from({ length: count }, (_, i) => newRow(randomUUID(), corpusMemory(start + i)));
}

async function waitUntilEmbedded(shared: Shared, target: PipelineTenant, total: number, label: string) {
  let lastLog = performance.now();
  // Generous: a slow machine must finish, not time out; progress is logged meanwhile.
  const timeoutMs = Math.max(300_000, total * 200);
  await poll(
    async () => {
      const done = await embeddedCount(shared.dataSource, target);
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        shared.input.log(`  ${label}: ${done}/${total} embedded`);
      }
      return done >= total ? true : undefined;
    },
    timeoutMs,
    `${label}: ${total} memories embedded`,
    100,
  );
}

function levelRows(level: Level): ResultRow[] {
  const { concurrency: c, raw, perWrite, rawBatched, batched } = level;
  const bench = `pipeline c=${c}`;
  const rows: ResultRow[] = [
    row(bench, `worker, 1 job per write (${perWrite.items} memories)`, 'memories/s', perWrite.itemsPerSecond, {
      name: `provider client, batch 1, c=${c}`,
      value: raw.itemsPerSecond,
    }),
    row(bench, 'lag write→vector p50, burst', 'ms', perWrite.burstLag.ms.p50),
    row(bench, 'lag write→vector p95, burst', 'ms', perWrite.burstLag.ms.p95),
  ];
  if (perWrite.steady) {
    const rate = perWrite.steady.ratePerSecond.toFixed(0);
    rows.push(
      row(bench, `lag write→vector p50 at ${rate}/s`, 'ms', perWrite.steady.ms.p50, {
        name: 'one provider call p50',
        value: raw.callMs.p50,
      }),
      row(bench, `lag write→vector p95 at ${rate}/s`, 'ms', perWrite.steady.ms.p95, {
        name: 'one provider call p95',
        value: raw.callMs.p95,
      }),
    );
  }
  rows.push(
    row(bench, `worker, ${SWEEP_JOB_SIZE}-id jobs (${batched.items} memories)`, 'memories/s', batched.itemsPerSecond, {
      name: `provider client, batch ${PROVIDER_BATCH}, c=${c}`,
      value: rawBatched.itemsPerSecond,
    }),
  );
  return rows;
}

function notes(levels: readonly Level[], input: PipelineBenchInput, seconds: number): string[] {
  const first = levels[0];
  const scaling = levels
    .map((level) => {
      const speedUp = first ? level.perWrite.itemsPerSecond / first.perWrite.itemsPerSecond : Number.NaN;
      return `c=${level.concurrency} ${level.perWrite.itemsPerSecond.toFixed(0)}/s (${speedUp.toFixed(2)}x)`;
    })
    .join(', ');
  const perCall = levels.map((level) => level.perWrite.meanItemsPerCall.toFixed(2)).join(' / ');
  const timings = levels
    .map((level) => `c=${level.concurrency} ${(level.perWrite.seconds + level.batched.seconds).toFixed(0)} s`)
    .join(', ');
  return [
    `pipeline: ${input.items} memories per one-job-per-write run ` +
      `(${Math.max(input.items, BATCHED_MIN_ITEMS)} per ${SWEEP_JOB_SIZE}-id run), written with bulk INSERTs of ${WRITE_CHUNK} (created_at = the ` +
      `INSERT's transaction start), each followed by one embed job per memory through JobQueue.enqueueEmbedding ` +
      `(the write path's call, ${ENQUEUE_CONCURRENCY} in flight); the real WorkerModule consumes in-process ` +
      `(fresh tenant and queue prefix per run) from an Ollama-protocol fake model server in the same process, ` +
      `${input.latencyMs} ms per request, ${input.slots > 0 ? `${input.slots} request(s) at a time (the rest queue), ` : ''}` +
      `${DIMENSIONS}-dimension vectors; lag = embedded_at − created_at ` +
      `(embedded_at is the storing transaction's start)`,
    `pipeline: one job per write; the worker's texts of concurrent jobs share provider requests ` +
      `(EMBEDDING_MAX_IN_FLIGHT ${input.slots > 0 ? input.slots : 'default'} in flight; mean texts per call ${perCall}); worker ` +
      `throughput by concurrency ${scaling}; the ${SWEEP_JOB_SIZE}-id rows put as many memories in one job ` +
      `as the sweep does (EMBEDDING_BATCH_SIZE ${PROVIDER_BATCH}) and show what batching across writes would give; ` +
      `the fake server's latency is per request, not per text, so that gain is an upper bound for a real GPU`,
    `pipeline: steady lag = writes one at a time at ${STEADY_LOAD * 100}% of the burst's drain rate for ` +
      `${STEADY_SECONDS} s; burst lag = all ${input.items} written at once, so it is mostly time in the queue ` +
      `and grows with --pipeline-items; ` +
      `run times ${timings}, ${seconds.toFixed(0)} s in all`,
  ];
}
