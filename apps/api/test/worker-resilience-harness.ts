import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createProject,
  createTenant,
  type FakeModelServer,
  issueToken,
  type TenantFixture,
  type TestClient,
} from '@cairn/testing';
import { type Queue } from 'bullmq';
import { DataSource } from 'typeorm';
import { killRedisSync, redisCommand, startRedis, stopRedis } from '../../../tools/local/redis';
import { freePort, which } from '../../../tools/local/util';
import { type ApiHarness } from './api-harness';
import { importLine, memoriesUrl } from './memory-fixtures';
import { type ChildApp, eventually, http, type RunningApp, startApp } from './process-harness';

/**
 * Helpers for the worker resilience tests: the Ollama provider configuration shared by the
 * api and the workers, worker child processes on the api's database, Redis and queue prefix,
 * database probes, and a Redis of the test's own that it can stop and restart.
 */

export const MODEL = 'nomic-embed-text';
export const DIMENSIONS = 64;
/** What the worker stores as `embedding_model` for MODEL at DIMENSIONS. */
export const MODEL_ID = `ollama-${MODEL}-${DIMENSIONS}`;

/** The provider settings of every app in these tests: Ollama, served by the fake model server. */
export function providerEnv(server: FakeModelServer): Record<string, string> {
  return {
    EMBEDDING_PROVIDER: 'ollama',
    EMBEDDING_MODEL: MODEL,
    EMBEDDING_DIMENSIONS: String(DIMENSIONS),
    OLLAMA_URL: server.url,
  };
}

/** A worker process's complete environment: the api's database, Redis, master key and queue prefix. */
export function workerEnv(
  api: ApiHarness,
  server: FakeModelServer,
  extra: Record<string, string> = {},
): Record<string, string> {
  const masterKey = api.config.secrets.masterKey;
  if (!masterKey) throw new Error('the api harness has no master key');
  return {
    DATABASE_URL: api.database.url,
    REDIS_URL: api.config.redis.url,
    CAIRN_MASTER_KEY: masterKey.toString('base64'),
    QUEUE_PREFIX: api.config.queues.prefix,
    LOG_LEVEL: 'info',
    ...providerEnv(server),
    ...extra,
  };
}

/** `node dist/apps/worker/src/main.js`, healthy (its BullMQ consumers start before it listens). */
export function startWorkerProcess(
  api: ApiHarness,
  server: FakeModelServer,
  extra: Record<string, string> = {},
): Promise<RunningApp> {
  return startApp('worker', workerEnv(api, server, extra));
}

/** Runs `work`; if it throws, the error carries what the child processes printed. */
export async function withOutputOf<T>(children: readonly ChildApp[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const output = children.map((child) => child.output()).join('\n');
    throw new Error(`${(error as Error).message}\n${output}`, { cause: error });
  }
}

export interface TenantWorld {
  readonly tenant: TenantFixture;
  readonly project: string;
  /** An agent token scoped to `project`. */
  readonly agent: TestClient;
  /** A member token (members may import). */
  readonly member: TestClient;
}

/** A tenant with one project and an agent token, made through the admin API. */
export async function tenantWorld(api: ApiHarness): Promise<TenantWorld> {
  const tenant = await createTenant(api.admin);
  const project = (await createProject(api.admin, tenant.slug)).slug;
  const { token } = await issueToken(api.admin, tenant.slug, {
    role: 'agent',
    projects: [project],
    agentId: 'resilience:agent',
  });
  const member = await issueToken(api.admin, tenant.slug, { role: 'member', projects: [project] });
  return { tenant, project, agent: api.client.as(token), member: api.client.as(member.token) };
}

/**
 * Imports memories through `POST …/memories/import` (JSON Lines): the product path that
 * enqueues one embed job for the whole batch. Returns their ids.
 */
export async function importMemories(world: TenantWorld, contents: readonly string[]): Promise<string[]> {
  const now = new Date().toISOString();
  const ids = contents.map(() => randomUUID());
  const header = { format: 'cairn.memories', version: 1, project: world.project, exportedAt: now };
  const lines = contents.map((content, index) =>
    importLine({
      id: ids[index],
      content,
      createdAt: now,
      updatedAt: now,
      author: { userId: null, agentId: 'resilience:import' },
    }),
  );
  const text = [header, ...lines].map((line) => JSON.stringify(line)).join('\n');
  const response = await world.member.request('POST', memoriesUrl(world.project, '/import'), text, {
    'content-type': 'application/x-ndjson',
  });
  if (response.status !== 200 || response.body.embedding !== 'queued') {
    throw new Error(`import: ${response.status} ${JSON.stringify(response.body)}`);
  }
  return ids;
}

export interface StoreOutcome {
  readonly status: number;
  readonly id?: string;
  readonly content: string;
  readonly embedding?: 'queued' | 'deferred' | 'unchanged';
  readonly body: unknown;
}

/** Stores a memory through REST and reports the answer, whatever it is. */
export async function storeMemory(world: TenantWorld, content: string): Promise<StoreOutcome> {
  const response = await world.agent.post(memoriesUrl(world.project), { content });
  const body = response.body as { memory?: { id: string }; embedding?: StoreOutcome['embedding'] };
  return { status: response.status, id: body.memory?.id, content, embedding: body.embedding, body: response.body };
}

/** Like `storeMemory`, but anything other than 201 throws. */
export async function storeAcknowledged(world: TenantWorld, content: string): Promise<Required<StoreOutcome>> {
  const outcome = await storeMemory(world, content);
  if (outcome.status !== 201 || !outcome.id || !outcome.embedding) {
    throw new Error(`store: ${outcome.status} ${JSON.stringify(outcome.body)}`);
  }
  return outcome as Required<StoreOutcome>;
}

/** A sentence of its own: random words, so bag-of-words vectors of two memories never coincide. */
export function distinctContent(label: string, index: number): string {
  const word = () => `w${randomBytes(3).toString('hex')}`;
  return `${label} note ${index}: the ${word()} service hands ${word()} batches to ${word()} before ${word()}`;
}

/** Of `ids`, those holding a vector of MODEL_ID for their current content. */
export async function embeddedIds(api: ApiHarness, schema: string, ids: readonly string[]): Promise<Set<string>> {
  const rows = await api.app.get(DataSource).query<{ id: string }[]>(
    `SELECT id FROM "${schema}".memories
      WHERE id = ANY($1::uuid[]) AND embedding IS NOT NULL AND embedding_model = $2 AND embedded_hash = content_hash`,
    [ids, MODEL_ID],
  );
  return new Set(rows.map((row) => row.id));
}

/** Polls the database until every one of `ids` has its vector. */
export async function waitUntilEmbedded(
  api: ApiHarness,
  schema: string,
  ids: readonly string[],
  timeoutMs: number,
  what = `${ids.length} memories to be embedded`,
): Promise<void> {
  let missing = ids.length;
  await eventually(
    async () => {
      missing = ids.length - (await embeddedIds(api, schema, ids)).size;
      return missing === 0 ? true : undefined;
    },
    timeoutMs,
    what,
  ).catch((error: Error) => {
    throw new Error(`${error.message} (${missing} of ${ids.length} still without a vector)`);
  });
}

/**
 * Waits until the worker's start-up rollout of MODEL_ID in the tenant is over (its index
 * exists and the backfill chain found nothing to do), so every embed request the provider
 * sees afterwards comes from the jobs the test caused.
 */
export async function waitForRollout(api: ApiHarness, schema: string, timeoutMs = 15_000): Promise<void> {
  await eventually(
    async () => {
      const [row] = await api.app
        .get(DataSource)
        .query<{ status: string }[]>(`SELECT status FROM "${schema}".embedding_backfills WHERE model = $1`, [MODEL_ID]);
      return row?.status === 'done' ? true : undefined;
    },
    timeoutMs,
    `the rollout of ${MODEL_ID} in ${schema}`,
  );
}

/** Jobs not yet finished (waiting, active, delayed, prioritized) and failed ones. */
export async function queueState(queue: Queue): Promise<{ pending: number; failed: number }> {
  const counts = await queue.getJobCounts('waiting', 'active', 'delayed', 'prioritized', 'paused', 'failed');
  const { failed = 0, ...rest } = counts;
  return { pending: Object.values(rest).reduce((sum, count) => sum + count, 0), failed };
}

/** `/readyz` of a running app: HTTP status and its checks. */
export async function readiness(
  app: RunningApp,
): Promise<{ status: number; checks: Record<string, { ok: boolean; detail?: string }> }> {
  const response = await http<{ checks: Record<string, { ok: boolean; detail?: string }> }>(`${app.url}/readyz`);
  return { status: response.status, checks: response.body.checks };
}

/** The texts the fake model server was asked to embed, from request number `from` on. */
export function embeddedTexts(server: FakeModelServer, from = 0): string[] {
  return server.requests
    .slice(from)
    .filter((request) => request.path === '/api/embed')
    .flatMap((request) => (Array.isArray(request.body?.input) ? (request.body.input as string[]) : []));
}

/**
 * A Redis of the test's own, with an append-only file, on a fixed port: `stop()` is a
 * SHUTDOWN (which writes the AOF), `start()` brings it back on the same port from the same
 * directory. `destroy()` removes the server and its files.
 */
export class DedicatedRedis {
  private readonly pidFile: string;
  private readonly forgetOnExit: () => void;

  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly binary: string,
  ) {
    this.pidFile = join(dir, 'redis.pid');
    // A jest worker that dies mid-test must not leave the server behind.
    const onExit = () => killRedisSync(this.pidFile);
    process.once('exit', onExit);
    this.forgetOnExit = () => process.removeListener('exit', onExit);
  }

  static async create(): Promise<DedicatedRedis> {
    const binary = which('redis-server');
    if (!binary) throw new Error('redis-server is not on PATH (sudo scripts/install-deps.sh installs it)');
    const redis = new DedicatedRedis(await freePort(), mkdtempSync(join(tmpdir(), 'cairn-resilience-redis-')), binary);
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    // ephemeral: false means --appendonly yes, noeviction, and a SHUTDOWN that persists.
    await startRedis(this.binary, { dir: this.dir, port: this.port, ephemeral: false, log: () => undefined });
  }

  /** SHUTDOWN (the AOF is written), then waits until the process is gone. */
  async stop(): Promise<void> {
    await stopRedis(this.port, this.pidFile, false);
  }

  async answers(): Promise<boolean> {
    try {
      return (await redisCommand(this.port, ['PING'], 500)) === 'PONG';
    } catch {
      return false;
    }
  }

  async destroy(): Promise<void> {
    await stopRedis(this.port, this.pidFile, true);
    this.forgetOnExit();
    rmSync(this.dir, { recursive: true, force: true });
  }
}
