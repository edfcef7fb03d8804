/**
 * What one pipeline run needs: a tenant with a project (through the admin API), the real
 * worker (`WorkerModule`, in-process, no HTTP server) on a queue prefix of its own, the
 * product's producer (`JobQueue`, as the api holds it), bulk row inserts, and probes on the
 * rows and the queue.
 */
import { randomBytes } from 'node:crypto';
import { type INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type CairnConfig, loadConfig } from '@cairn/config';
import { JobQueue, QUEUE_NAMES } from '@cairn/jobs';
import { memoryContentHash } from '@cairn/memory';
import { quotedSchema, type TenantRef } from '@cairn/tenancy';
import { WorkerModule } from '@cairn/worker-app';
import { type DataSource } from 'typeorm';
import { type BenchApp } from '../lib/app';
import { type CorpusMemory } from '../search/corpus';
import { databaseSettings } from '../lib/environment';
import { benchMasterKey } from '../lib/master-key';

export const MODEL = 'nomic-embed-text';
/** nomic-embed-text's size: the row, index and JSON costs are those of the real model. */
export const DIMENSIONS = 768;
export const MODEL_ID = `ollama-${MODEL}-${DIMENSIONS}`;

export interface PipelineTenant {
  readonly tenant: TenantRef;
  readonly projectId: string;
  readonly table: string;
}

export async function createPipelineTenant(bench: BenchApp): Promise<PipelineTenant> {
  const { client, adminToken } = bench;
  const slug = `bench-pipeline-${randomBytes(4).toString('hex')}`;
  const tenant = await client.expectJson<TenantRef>(201, 'POST', '/v1/tenants', adminToken, {
    slug,
    name: 'Pipeline benchmark',
  });
  const project = await client.expectJson<{ id: string }>(201, 'POST', `/v1/tenants/${slug}/projects`, adminToken, {
    slug: 'memories',
    name: 'Benchmark memories',
  });
  return {
    tenant: { id: tenant.id, slug: tenant.slug, schema: tenant.schema },
    projectId: project.id,
    table: `${quotedSchema(tenant.schema)}.memories`,
  };
}

/** Deletes the tenant through the admin API (its schema is dropped). */
export async function dropPipelineTenant(bench: BenchApp, target: PipelineTenant): Promise<void> {
  const response = await bench.app.inject({
    method: 'DELETE',
    url: `/v1/tenants/${target.tenant.slug}`,
    headers: { authorization: `Bearer ${bench.adminToken}` },
  });
  if (response.statusCode >= 300) throw new Error(`DELETE tenant: ${response.statusCode} ${response.body}`);
}

/** The worker's configuration for one run, as `apps/worker` would load it from its environment. */
export function workerConfig(input: {
  databaseUrl: string;
  redisUrl: string;
  modelUrl: string;
  concurrency: number;
  /** EMBEDDING_MAX_IN_FLIGHT; the app's default when absent. */
  maxInFlight?: number;
  queuePrefix: string;
  /** EMBEDDING_QUEUE_FAIRNESS; the app's default (on) when absent. */
  fairness?: boolean;
  /**
   * CAIRN_MASTER_KEY (base64); the run's (benchMasterKey) when absent. A run that starts a second worker on the
   * same database must give the first one's: the worker refuses data keys wrapped by another key.
   */
  masterKey?: string;
}): CairnConfig {
  return loadConfig('worker', {
    NODE_ENV: 'production',
    ...databaseSettings(input.databaseUrl),
    REDIS_URL: input.redisUrl,
    CAIRN_MASTER_KEY: input.masterKey ?? benchMasterKey(),
    LOG_LEVEL: 'silent',
    QUEUE_PREFIX: input.queuePrefix,
    EMBEDDING_PROVIDER: 'ollama',
    EMBEDDING_MODEL: MODEL,
    EMBEDDING_DIMENSIONS: String(DIMENSIONS),
    OLLAMA_URL: input.modelUrl,
    WORKER_CONCURRENCY_EMBEDDINGS: String(input.concurrency),
    ...(input.maxInFlight ? { EMBEDDING_MAX_IN_FLIGHT: String(input.maxInFlight) } : {}),
    ...(input.fairness === undefined ? {} : { EMBEDDING_QUEUE_FAIRNESS: String(input.fairness) }),
  });
}

/** `WorkerModule` exactly as `apps/worker` builds it, minus the HTTP server: its consumers start here. */
export function startWorker(config: CairnConfig): Promise<INestApplicationContext> {
  return NestFactory.createApplicationContext(WorkerModule.register(config), { logger: false, abortOnError: false });
}

/** The api's producer, on its own connection: enqueues exactly as the write path does. */
export function startProducer(config: CairnConfig): JobQueue {
  return new JobQueue({ ...config, app: 'api' });
}

/** Removes every key the run left under its queue prefix, then closes the producer. */
export async function closeProducer(producer: JobQueue): Promise<void> {
  for (const name of QUEUE_NAMES) {
    await producer
      .queue(name)
      .obliterate({ force: true })
      .catch(() => undefined);
  }
  await producer.onApplicationShutdown();
}

export async function poll<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
  intervalMs = 100,
): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The worker's start-up rollout in the tenant (index built, empty backfill done) is over. */
export async function waitForRollout(dataSource: DataSource, target: PipelineTenant): Promise<void> {
  await poll(
    async () => {
      const [row] = await dataSource.query<{ status: string }[]>(
        `SELECT status FROM ${quotedSchema(target.tenant.schema)}.embedding_backfills WHERE model = $1`,
        [MODEL_ID],
      );
      return row?.status === 'done' ? true : undefined;
    },
    30_000,
    `the rollout of ${MODEL_ID}`,
  );
}

export interface NewRow {
  readonly id: string;
  readonly memory: CorpusMemory;
  readonly contentHash: string;
}

export function newRow(id: string, memory: CorpusMemory): NewRow {
  return { id, memory, contentHash: memoryContentHash(memory.content, memory.keywords) };
}

const INSERT_SQL = (table: string) => `
  INSERT INTO ${table} (id, project_id, content, content_hash, category, tags, keywords, importance, confidence,
    author_agent_id)
  SELECT u.id, $2::uuid, u.content, u.content_hash, u.category, u.tags, u.keywords, u.importance, u.confidence,
    'bench:pipeline'
  FROM jsonb_to_recordset($1::jsonb) AS u(id uuid, content text, content_hash text, category text, tags text[],
    keywords text[], importance smallint, confidence real)`;

/** One INSERT (one transaction: `created_at` is its start) for all of `rows`. */
export async function insertRows(dataSource: DataSource, target: PipelineTenant, rows: readonly NewRow[]) {
  const records = rows.map(({ id, memory, contentHash }) => ({
    id,
    content: memory.content,
    content_hash: contentHash,
    category: memory.category,
    tags: memory.tags,
    keywords: memory.keywords,
    importance: memory.importance,
    confidence: memory.confidence,
  }));
  await dataSource.query(INSERT_SQL(target.table), [JSON.stringify(records), target.projectId]);
}

/** Rows of the run holding a vector of the model for their current content. */
export async function embeddedCount(dataSource: DataSource, target: PipelineTenant): Promise<number> {
  const [row] = await dataSource.query<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM ${target.table} WHERE embedding_model = $1 AND embedded_hash = content_hash`,
    [MODEL_ID],
  );
  return row?.n ?? 0;
}

export interface LagRows {
  /** embedded_at − created_at per row, ms. */
  readonly lagsMs: number[];
  /** First write to last vector, ms (both on PostgreSQL's clock). */
  readonly spanMs: number;
}

export async function lags(dataSource: DataSource, target: PipelineTenant, ids: readonly string[]): Promise<LagRows> {
  const rows = await dataSource.query<{ lag: number }[]>(
    `SELECT extract(epoch FROM embedded_at - created_at) * 1000 AS lag FROM ${target.table} WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  const [span] = await dataSource.query<{ ms: number }[]>(
    `SELECT extract(epoch FROM max(embedded_at) - min(created_at)) * 1000 AS ms FROM ${target.table}
      WHERE id = ANY($1::uuid[])`,
    [ids],
  );
  return { lagsMs: rows.map((row) => Number(row.lag)), spanMs: Number(span?.ms ?? Number.NaN) };
}

/** Jobs not finished yet, and failed ones, on the embeddings queue. */
export async function embeddingsQueue(producer: JobQueue): Promise<{ pending: number; failed: number }> {
  const counts = await producer
    .queue('embeddings')
    .getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'paused', 'failed');
  const { failed = 0, ...rest } = counts;
  return { pending: Object.values(rest).reduce((sum, n) => sum + n, 0), failed };
}

/** Runs `work` over `items` with at most `limit` in flight. */
export async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const lane = async (): Promise<void> => {
    for (let index = next++; index < items.length; index = next++) await work(items[index]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, () => lane()));
}
