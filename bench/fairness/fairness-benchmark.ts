/**
 * Fairness between tenants in the embedding queue: tenant A imports N memories (bulk jobs of
 * BULK_JOB_SIZE, as `MemoryImporter` enqueues them) and tenant B writes M memories one at a time during
 * it (one interactive job each, as `MemoryWriter.store` enqueues it), consumed by the real
 * worker (`WorkerModule`, in-process) from an Ollama-speaking fake model server. Run twice with
 * fresh tenants and queue prefix: EMBEDDING_QUEUE_FAIRNESS=false (one FIFO queue: the baseline)
 * and true. See bench/fairness/README.md.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { type INestApplicationContext } from '@nestjs/common';
import { BULK_JOB_SIZE, type JobQueue } from '@cairn/jobs';
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
  insertRows,
  lags,
  MODEL,
  newRow,
  type NewRow,
  type PipelineTenant,
  poll,
  startProducer,
  startWorker,
  waitForRollout,
  workerConfig,
} from '../pipeline/fixture';

/** Rows per INSERT of the import (the import's own transaction is one; chunks keep statements small). */
const INSERT_CHUNK = 500;

export interface FairnessBenchInput {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly bench: BenchApp;
  /** Memories tenant A imports. */
  readonly items: number;
  /** Memories tenant B writes during the import. */
  readonly writes: number;
  /** B's writes per second (open loop). */
  readonly writeRate: number;
  /** WORKER_CONCURRENCY_EMBEDDINGS. */
  readonly concurrency: number;
  readonly latencyMs: number;
  readonly log: (line: string) => void;
}

interface RunResult {
  readonly fairness: boolean;
  /** Time to embedding of B's memories: embedded_at − created_at per row. */
  readonly writeLag: LatencySummary;
  /** B's writes committed before A's last vector was stored: the ones that met the import. */
  readonly writesDuringImport: number;
  /** A's import: first row created to last vector stored (PostgreSQL's clock). */
  readonly importSeconds: number;
  readonly importJobs: number;
  readonly loadAverage: readonly number[];
  readonly seconds: number;
}

interface Shared {
  readonly input: FairnessBenchInput;
  readonly server: FakeModelServer;
  readonly dataSource: DataSource;
  /** Corpus offset of the next unused memory, so every run embeds texts of its own. */
  next: number;
}

export async function benchFairness(
  input: FairnessBenchInput,
): Promise<{ rows: ResultRow[]; notes: string[]; data: unknown }> {
  const began = performance.now();
  // One request at a time, like a single GPU or the local model's one thread: the provider is
  // the bottleneck, so the queue's order decides who waits.
  const server = await startFakeModelServer({
    dimensions: DIMENSIONS,
    models: [`${MODEL}:latest`],
    latencyMs: input.latencyMs,
    slots: 1,
  });
  try {
    const shared: Shared = {
      input,
      server,
      dataSource: input.bench.app.get(DataSource, { strict: false }),
      next: 7_000_000,
    };
    // The baseline first, then the change; each on fresh tenants, queue prefix and worker.
    const off = await run(shared, false);
    const on = await run(shared, true);
    const seconds = (performance.now() - began) / 1000;
    return {
      rows: rows(off, on, input),
      notes: notes(off, on, input, seconds),
      data: {
        items: input.items,
        writes: input.writes,
        writeRate: input.writeRate,
        concurrency: input.concurrency,
        latencyMs: input.latencyMs,
        importJobSize: BULK_JOB_SIZE,
        seconds,
        runs: [off, on],
      },
    };
  } finally {
    await server.close();
  }
}

async function run(shared: Shared, fairness: boolean): Promise<RunResult> {
  const { input, server, dataSource } = shared;
  const { bench, log } = input;
  const began = performance.now();
  const label = `fairness ${fairness ? 'on' : 'off'}`;
  const a = await createPipelineTenant(bench);
  const b = await createPipelineTenant(bench);
  const config = workerConfig({
    databaseUrl: input.databaseUrl,
    redisUrl: input.redisUrl,
    modelUrl: server.url,
    concurrency: input.concurrency,
    maxInFlight: 1,
    queuePrefix: `bench-fair-${randomBytes(4).toString('hex')}`,
    fairness,
    // The api's key: both runs' workers (and the api) share the database's data keys.
    masterKey: bench.config.secrets.masterKey?.toString('base64'),
  });
  const producer = startProducer(config);
  let worker: INestApplicationContext | undefined;
  try {
    worker = await startWorker(config);
    await waitForRollout(dataSource, a);
    await waitForRollout(dataSource, b);
    const imported = take(shared, input.items);
    const written = take(shared, input.writes);

    // A's import: its rows committed, then its bulk jobs enqueued after the commit.
    for (let start = 0; start < imported.length; start += INSERT_CHUNK) {
      await insertRows(dataSource, a, imported.slice(start, start + INSERT_CHUNK));
    }
    // MemoryImporter's call: every row in one call, which enqueues bulk jobs of BULK_JOB_SIZE.
    const items = imported.map(({ id, contentHash }) => ({ id, contentHash }));
    if (!(await producer.enqueueEmbedding(a.tenant.id, 'memory', items, { origin: 'bulk' }))) {
      throw new Error('could not enqueue the import jobs');
    }
    const importJobs = Math.ceil(items.length / BULK_JOB_SIZE);
    log(`  ${label}: A's ${input.items} memories imported, ${importJobs} bulk jobs enqueued`);

    // B's writes, one at a time on schedule (open loop), each followed by its interactive job.
    const begin = performance.now();
    const writes: Promise<void>[] = [];
    for (const [index, one] of written.entries()) {
      const wait = begin + (index * 1000) / input.writeRate - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      writes.push(insertRows(dataSource, b, [one]).then(() => enqueueWrite(producer, b, one)));
    }
    await Promise.all(writes);
    await waitUntilEmbedded(shared, b, input.writes, `${label} B`);
    await waitUntilEmbedded(shared, a, input.items, `${label} A`);
    await poll(
      async () => ((await embeddingsQueue(producer)).pending === 0 ? true : undefined),
      30_000,
      'the embeddings queue to drain',
    );
    const { failed } = await embeddingsQueue(producer);
    if (failed > 0) throw new Error(`${label}: ${failed} embed jobs failed`);

    const importLags = await lags(
      dataSource,
      a,
      imported.map((one) => one.id),
    );
    const writeLags = await lags(
      dataSource,
      b,
      written.map((one) => one.id),
    );
    const writesDuringImport = await countWritesBefore(dataSource, b, a);
    const result: RunResult = {
      fairness,
      writeLag: summarize(writeLags.lagsMs),
      writesDuringImport,
      importSeconds: importLags.spanMs / 1000,
      importJobs,
      loadAverage: loadavg(),
      seconds: (performance.now() - began) / 1000,
    };
    log(
      `  ${label}: B's time to embedding p50 ${result.writeLag.p50.toFixed(0)} ms, p95 ` +
        `${result.writeLag.p95.toFixed(0)} ms, max ${result.writeLag.max.toFixed(0)} ms ` +
        `(${writesDuringImport}/${input.writes} written during the import); A's import ${result.importSeconds.toFixed(1)} s`,
    );
    return result;
  } finally {
    await worker?.close();
    await closeProducer(producer);
    await dropPipelineTenant(bench, a);
    await dropPipelineTenant(bench, b);
  }
}

/** What `MemoryWriter.store` does after its transaction commits (inline embedding aside). */
async function enqueueWrite(producer: JobQueue, target: PipelineTenant, one: NewRow): Promise<void> {
  const queued = await producer.enqueueEmbedding(
    target.tenant.id,
    'memory',
    [{ id: one.id, contentHash: one.contentHash }],
    { origin: 'interactive' },
  );
  if (!queued) throw new Error('could not enqueue an embed job');
}

/** B's rows created before A's last vector was stored. */
async function countWritesBefore(dataSource: DataSource, b: PipelineTenant, a: PipelineTenant): Promise<number> {
  const [found] = await dataSource.query<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM ${b.table} WHERE created_at < (SELECT max(embedded_at) FROM ${a.table})`,
  );
  return found?.n ?? 0;
}

function take(shared: Shared, count: number): NewRow[] {
  const start = shared.next;
  shared.next += count;
  return Array.from({ length: count }, (_, i) => newRow(randomUUID(), corpusMemory(start + i)));
}

async function waitUntilEmbedded(shared: Shared, target: PipelineTenant, total: number, label: string) {
  let lastLog = performance.now();
  await poll(
    async () => {
      const done = await embeddedCount(shared.dataSource, target);
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        shared.input.log(`  ${label}: ${done}/${total} embedded`);
      }
      return done >= total ? true : undefined;
    },
    // Generous: a slow machine must finish, not time out; progress is logged meanwhile.
    Math.max(300_000, total * 200),
    `${label}: ${total} memories embedded`,
  );
}

function rows(off: RunResult, on: RunResult, input: FairnessBenchInput): ResultRow[] {
  const bench = `fairness c=${input.concurrency}`;
  const baseline = (value: number) => ({ name: 'fairness off (one FIFO queue)', value });
  return [
    row(bench, `B's ${input.writes} writes: time to embedding p50`, 'ms', on.writeLag.p50, baseline(off.writeLag.p50)),
    row(bench, `B's ${input.writes} writes: time to embedding p95`, 'ms', on.writeLag.p95, baseline(off.writeLag.p95)),
    row(bench, `B's ${input.writes} writes: time to embedding max`, 'ms', on.writeLag.max, baseline(off.writeLag.max)),
    row(
      bench,
      `A's import of ${input.items}: first row to last vector`,
      's',
      on.importSeconds,
      baseline(off.importSeconds),
    ),
  ];
}

function notes(off: RunResult, on: RunResult, input: FairnessBenchInput, seconds: number): string[] {
  return [
    `fairness: tenant A imports ${input.items} memories (bulk INSERTs of ${INSERT_CHUNK}, then ${on.importJobs} bulk ` +
      `embed jobs of ${BULK_JOB_SIZE}, as MemoryImporter enqueues them); right after, tenant B writes ` +
      `${input.writes} memories one at a time at ${input.writeRate}/s (a single-row INSERT, then one interactive ` +
      `job, as MemoryWriter.store enqueues it; inline embedding aside); the real WorkerModule consumes in-process ` +
      `at WORKER_CONCURRENCY_EMBEDDINGS ${input.concurrency} from an Ollama-protocol fake model server serving one ` +
      `request at a time, ${input.latencyMs} ms each (EMBEDDING_MAX_IN_FLIGHT 1), ${DIMENSIONS}-dimension vectors`,
    `fairness: time to embedding = embedded_at − created_at of B's rows; A's import = its first created_at to its ` +
      `last embedded_at (PostgreSQL's clock); B's writes that met the import (committed before A's last vector): ` +
      `${off.writesDuringImport}/${input.writes} off, ${on.writesDuringImport}/${input.writes} on`,
    `fairness: runs in this order, each on fresh tenants, queue prefix and worker: off ${off.seconds.toFixed(0)} s, ` +
      `on ${on.seconds.toFixed(0)} s, ${seconds.toFixed(0)} s in all; 1-min load average after them ` +
      `${off.loadAverage[0]?.toFixed(2) ?? '?'} and ${on.loadAverage[0]?.toFixed(2) ?? '?'}`,
  ];
}
