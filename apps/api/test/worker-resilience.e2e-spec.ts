import { type TestingModule } from '@nestjs/testing';
import { JobQueue, withTimeout } from '@cairn/jobs';
import { MetricsService } from '@cairn/observability';
import { type FakeModelServer, startFakeModelServer, startWorkerContext, testConfig } from '@cairn/testing';
import { WorkerModule } from '@cairn/worker-app';
import { QueueEvents } from 'bullmq';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl } from './memory-fixtures';
import { eventually, killAllChildren, type RunningApp } from './process-harness';
import {
  DedicatedRedis,
  DIMENSIONS,
  distinctContent,
  embeddedIds,
  embeddedTexts,
  importMemories,
  MODEL,
  MODEL_ID,
  providerEnv,
  queueState,
  readiness,
  startWorkerProcess,
  type StoreOutcome,
  storeAcknowledged,
  storeMemory,
  tenantWorld,
  type TenantWorld,
  waitForRollout,
  waitUntilEmbedded,
  withOutputOf,
} from './worker-resilience-harness';

/**
 * The embedding pipeline under failure, with the BUILT worker (`npm test` builds first) as
 * real child processes where a process has to die, and the real api, Redis, PostgreSQL and
 * an Ollama-speaking model server over HTTP. Every wait polls a real condition (request log,
 * rows, queue counts, /readyz); nothing relies on sleeping.
 */

const FAKE_MODELS = [`${MODEL}:latest`];
/** Short, so jobs held by a dead worker come back within seconds (production default: 30 s). */
const STALLED_MS = '2000';

afterEach(async () => {
  await killAllChildren();
});

describe('a worker killed with SIGKILL mid-batch', () => {
  let server: FakeModelServer;
  let api: ApiHarness;
  let world: TenantWorld;

  beforeAll(async () => {
    server = await startFakeModelServer({ dimensions: DIMENSIONS, models: FAKE_MODELS, latencyMs: 1_500 });
    api = await startApi(providerEnv(server));
    world = await tenantWorld(api);
  });
  afterAll(async () => {
    await killAllChildren();
    await api?.close();
    await server?.close();
  });

  it('loses no job: a second worker finishes what the first was doing', async () => {
    // Four texts per provider call: the imported batch takes three calls of 1.5 s each.
    const env = { WORKER_STALLED_INTERVAL_MS: STALLED_MS, EMBEDDING_BATCH_SIZE: '4' };
    const first = await startWorkerProcess(api, server, env);
    await withOutputOf([first.process], () => waitForRollout(api, world.tenant.schema));

    const before = server.requests.length;
    // One job for a batch of twelve (an import), then one job per memory (the write path).
    const batch = Array.from({ length: 12 }, (_, i) => distinctContent('sigkill batch', i));
    const ids = await importMemories(world, batch);
    for (let i = 0; i < 6; i += 1) ids.push((await storeAcknowledged(world, distinctContent('sigkill', i))).id);
    // Kill the first worker inside the batch's first provider call, its other jobs in flight too.
    await withOutputOf([first.process], () =>
      eventually(
        () => Promise.resolve(embeddedTexts(server, before).some((text) => batch.includes(text)) || undefined),
        15_000,
        "the batch's first embed request",
      ),
    );
    first.process.signal('SIGKILL');
    expect(await first.process.waitForExit(10_000)).toEqual({ code: null, signal: 'SIGKILL' });
    const killedAt = server.requests.length;
    const inFlight = embeddedTexts(server, before);
    // Killed inside the batch: one of its provider calls in flight (four texts), or, when the kill
    // came late on a loaded machine, the second; never the whole batch.
    const batchInFlight = inFlight.filter((text) => batch.includes(text)).length;
    expect([4, 8]).toContain(batchInFlight);
    // The first worker never finished anything: it died before its provider answered.
    expect((await embeddedIds(api, world.tenant.schema, ids)).size).toBe(0);

    const second = await startWorkerProcess(api, server, env);
    await withOutputOf([second.process], () =>
      waitUntilEmbedded(api, world.tenant.schema, ids, 30_000, 'every memory embedded by the second worker'),
    );
    // What the first worker had in flight was run again (stalled-job recovery), not dropped.
    const rerun = embeddedTexts(server, killedAt);
    for (const text of [...inFlight, ...batch]) expect(rerun).toContain(text);
    const queue = api.app.get(JobQueue).queue('embeddings');
    await eventually(
      async () => ((await queueState(queue)).pending === 0 ? true : undefined),
      10_000,
      'the embeddings queue to drain',
    );
    expect(await queueState(queue)).toEqual({ pending: 0, failed: 0 });
  }, 90_000);
});

describe('Redis restarted during a run', () => {
  let redis: DedicatedRedis;
  let server: FakeModelServer;
  let api: ApiHarness;
  let world: TenantWorld;
  let worker: RunningApp;

  beforeAll(async () => {
    redis = await DedicatedRedis.create();
    // Slow enough that jobs are still waiting in Redis when it goes down.
    server = await startFakeModelServer({ dimensions: DIMENSIONS, models: FAKE_MODELS, latencyMs: 400 });
    api = await startApi({ ...providerEnv(server), REDIS_URL: redis.url });
    world = await tenantWorld(api);
  });
  afterAll(async () => {
    await killAllChildren();
    await api?.close();
    await server?.close();
    await redis?.destroy();
  });

  it('loses no acknowledged write; the queue drains and the sweep catches up with lost enqueues', async () => {
    worker = await startWorkerProcess(api, server, {
      WORKER_STALLED_INTERVAL_MS: STALLED_MS,
      WORKER_CONCURRENCY_EMBEDDINGS: '1',
    });
    const { schema } = world.tenant;
    await withOutputOf([worker.process], async () => {
      await waitForRollout(api, schema);
      expect((await readiness(worker)).checks.redis).toMatchObject({ ok: true });

      const acknowledged: StoreOutcome[] = [];
      for (let i = 0; i < 10; i += 1) acknowledged.push(await storeAcknowledged(world, distinctContent('before', i)));
      expect(acknowledged.map((outcome) => outcome.embedding)).toEqual(Array(10).fill('queued'));
      const queue = api.app.get(JobQueue).queue('embeddings');
      expect((await queueState(queue)).pending).toBeGreaterThan(0);

      // Writes keep coming while Redis goes away and comes back (paced, so they stay a few dozen).
      let writing = true;
      const background: StoreOutcome[] = [];
      const writer = (async () => {
        for (let i = 0; writing; i += 1) {
          background.push(await storeMemory(world, distinctContent('during', i)));
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      })();

      await redis.stop();
      expect(await redis.answers()).toBe(false);
      const whileDown: StoreOutcome[] = [];
      for (let i = 0; i < 5; i += 1) whileDown.push(await storeMemory(world, distinctContent('down', i)));
      // The write commits and says its embedding waits for the sweep.
      for (const outcome of whileDown) expect(outcome).toMatchObject({ status: 201, embedding: 'deferred' });
      await eventually(
        async () => {
          const ready = await readiness(worker);
          return ready.status === 503 && ready.checks.redis?.ok === false ? true : undefined;
        },
        15_000,
        'the worker to report Redis as not ready',
      );

      await redis.start();
      await eventually(
        async () => {
          const ready = await readiness(worker);
          return ready.status === 200 && ready.checks.redis?.ok === true ? true : undefined;
        },
        20_000,
        'the worker to report Redis as ready again',
      );
      // The api's producer reconnects too: writes are queued again.
      const after: StoreOutcome[] = [];
      await eventually(
        async () => {
          const outcome = await storeMemory(world, distinctContent('after', after.length));
          after.push(outcome);
          return outcome.embedding === 'queued' ? true : undefined;
        },
        20_000,
        'a write whose embedding job is queued again',
      );
      writing = false;
      await writer;

      const all = [...acknowledged, ...background, ...whileDown, ...after];
      for (const outcome of all) expect(outcome.status).toBe(201);
      const ids = all.map((outcome) => outcome.id!);
      const queued = all.filter((outcome) => outcome.embedding === 'queued').map((outcome) => outcome.id!);

      // Every job Redis acknowledged survived the restart (AOF) and is processed.
      await waitUntilEmbedded(api, schema, queued, 45_000, 'every queued write to be embedded after the restart');
      await eventually(
        async () => ((await queueState(queue)).pending === 0 ? true : undefined),
        20_000,
        'the embeddings queue to drain',
      );
      expect((await queueState(queue)).failed).toBe(0);

      // What is left had its enqueue lost: only writes that said so, at least those made while Redis was down.
      const embedded = await embeddedIds(api, schema, ids);
      const lost = all.filter((outcome) => !embedded.has(outcome.id!));
      for (const outcome of lost) expect(outcome.embedding).toBe('deferred');
      expect(lost.map((outcome) => outcome.id)).toEqual(expect.arrayContaining(whileDown.map((outcome) => outcome.id)));

      // The sweep only takes rows older than its settle time: age them, then run it through the queue.
      await api.app
        .get(DataSource)
        .query(
          `UPDATE "${schema}".memories SET updated_at = updated_at - interval '1 hour' WHERE id = ANY($1::uuid[])`,
          [lost.map((outcome) => outcome.id)],
        );
      const events = new QueueEvents('maintenance', {
        connection: { url: redis.url } as never,
        prefix: api.config.queues.prefix,
      });
      try {
        await events.waitUntilReady();
        const jobId = `resilience-sweep-${world.tenant.id}`;
        // Listening before the job exists: completed jobs are removed at once.
        const finished = new Promise<unknown>((resolve, reject) => {
          events.on('completed', (event) => event.jobId === jobId && resolve(event.returnvalue));
          events.on('failed', (event) => event.jobId === jobId && reject(new Error(event.failedReason)));
        });
        const jobs = api.app.get(JobQueue);
        expect(
          await jobs.enqueue('maintenance', 'stale-embedding-sweep', { tenantId: world.tenant.id }, { jobId }),
        ).toBe(true);
        expect(await withTimeout(finished, 20_000)).toEqual({
          status: 'done',
          counts: { memory: lost.length, kb_chunk: 0, code_chunk: 0 },
        });
      } finally {
        await events.close();
      }
      await waitUntilEmbedded(api, schema, ids, 30_000, 'every acknowledged write to be embedded');
      // The sweep's jobs store their vectors before BullMQ marks them done: the queue empties just after.
      await eventually(
        async () => ((await queueState(queue)).pending === 0 ? true : undefined),
        20_000,
        'the embeddings queue to drain after the sweep',
      );
      expect(await queueState(queue)).toEqual({ pending: 0, failed: 0 });

      // And every one of them is found by its meaning.
      server.options.latencyMs = 0;
      for (const outcome of all) {
        const found = await world.agent.post(memoriesUrl(world.project, '/search'), {
          query: outcome.content,
          mode: 'semantic',
          limit: 5,
        });
        expect(found.status).toBe(200);
        expect(found.body.report).toMatchObject({ mode: 'semantic', embeddingModel: MODEL_ID });
        expect(found.body.results.map((hit: { memory: { id: string } }) => hit.memory.id)).toContain(outcome.id);
      }
    });
  }, 180_000);
});

describe('provider errors through the real queue', () => {
  const ATTEMPTS = 2;
  let server: FakeModelServer;
  let api: ApiHarness;
  let worker: TestingModule;
  const worlds: Record<'throttled' | 'malformed' | 'dimensions' | 'timeout', TenantWorld> = {} as never;

  beforeAll(async () => {
    server = await startFakeModelServer({ dimensions: DIMENSIONS, models: FAKE_MODELS });
    const env = { ...providerEnv(server), JOB_ATTEMPTS: String(ATTEMPTS), JOB_BACKOFF_MS: '200' };
    api = await startApi(env);
    // Tenants first: the worker rolls the model out in each at start-up, before any scripted failure.
    for (const name of ['throttled', 'malformed', 'dimensions', 'timeout'] as const) {
      worlds[name] = await tenantWorld(api);
    }
    const config = testConfig(
      api.database.url,
      api.config.redis.url,
      {
        ...env,
        QUEUE_PREFIX: api.config.queues.prefix,
        PROVIDER_TIMEOUT_MS: '1000',
        WORKER_CONCURRENCY_EMBEDDINGS: '1',
      },
      'worker',
    );
    worker = await startWorkerContext(WorkerModule.register(config));
    for (const world of Object.values(worlds)) await waitForRollout(api, world.tenant.schema);
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
    await server?.close();
  });

  const requestsFor = (content: string) => embeddedTexts(server).filter((text) => text.includes(content)).length;
  const metrics = () => worker.get(MetricsService).registry.metrics();
  const requestCount = (outcome: string) =>
    new RegExp(`cairn_embedding_requests_total\\{provider="ollama",model="${MODEL_ID}",outcome="${outcome}"\\} (\\d+)`);

  async function failedJobs(world: TenantWorld) {
    const listed = await api.admin.get(`/v1/admin/jobs/failed?tenant=${world.tenant.id}`);
    expect(listed.status).toBe(200);
    return listed.body.items as Record<string, unknown>[];
  }

  it('pauses on 429 with Retry-After and succeeds later without spending attempts', async () => {
    const world = worlds.throttled;
    // More refusals than the job has attempts: it only succeeds if none of them cost one.
    const refusals = ATTEMPTS + 1;
    server.fail(
      ...Array.from({ length: refusals }, () => ({
        path: '/api/embed',
        type: 'status' as const,
        status: 429,
        retryAfter: '1',
      })),
    );
    const { id, content } = await storeAcknowledged(world, distinctContent('throttled', 0));
    await waitUntilEmbedded(api, world.tenant.schema, [id], 30_000);

    expect(requestsFor(content)).toBe(refusals + 1);
    expect(await failedJobs(world)).toEqual([]);
    const text = await metrics();
    expect(text).toMatch(
      new RegExp(
        `cairn_job_duration_seconds_count\\{queue="embeddings",name="embed",outcome="throttled"\\} ${refusals}\\n`,
      ),
    );
    expect(requestCount('rate_limited').exec(text)?.[1]).toBe(String(refusals));
  }, 60_000);

  it.each([
    [
      'malformed' as const,
      'not JSON',
      { type: 'malformed' as const },
      'Ollama POST /api/embed: the answer is not JSON',
    ],
    [
      'dimensions' as const,
      'of the wrong dimensions',
      { type: 'dimensions' as const, dimensions: 32 },
      `${MODEL_ID}: a vector has 32 dimensions, expected ${DIMENSIONS} (EMBEDDING_DIMENSIONS)`,
    ],
  ])(
    'fails a job whose answers stay %s (%s) after its attempts, and lists it cleanly',
    async (name, _what, failure, reason) => {
      const world = worlds[name];
      server.fail(...Array.from({ length: ATTEMPTS }, () => ({ path: '/api/embed', ...failure })));
      const { id, content } = await storeAcknowledged(world, distinctContent(name, 0));

      const [listed] = await eventually(
        async () => {
          const items = await failedJobs(world);
          return items.length > 0 ? items : undefined;
        },
        20_000,
        'the job to be listed as failed',
      );
      expect(listed).toMatchObject({
        queue: 'embeddings',
        name: 'embed',
        tenantId: world.tenant.id,
        attemptsMade: ATTEMPTS,
        failedReason: reason,
      });
      expect(String(listed?.failedReason)).not.toContain(content);
      expect(requestsFor(content)).toBe(ATTEMPTS);
      expect((await embeddedIds(api, world.tenant.schema, [id])).size).toBe(0);

      // Once the provider behaves, an operator's retry embeds it.
      const retried = await api.admin.post('/v1/admin/jobs/failed/retry', { tenant: world.tenant.id });
      expect(retried.body).toEqual({ retried: 1 });
      await waitUntilEmbedded(api, world.tenant.schema, [id], 20_000);
      expect(await failedJobs(world)).toEqual([]);
    },
  );

  it('retries a provider call that timed out', async () => {
    const world = worlds.timeout;
    server.fail({ path: '/api/embed', type: 'hang' });
    const { id, content } = await storeAcknowledged(world, distinctContent('timeout', 0));
    await waitUntilEmbedded(api, world.tenant.schema, [id], 20_000);

    expect(requestsFor(content)).toBe(2);
    expect(requestCount('timeout').exec(await metrics())?.[1]).toBe('1');
    expect(await failedJobs(world)).toEqual([]);
  });
});

describe('graceful shutdown with a job in flight', () => {
  const SHUTDOWN_TIMEOUT_MS = 6_000;
  let server: FakeModelServer;
  let api: ApiHarness;
  let world: TenantWorld;

  beforeAll(async () => {
    server = await startFakeModelServer({ dimensions: DIMENSIONS, models: FAKE_MODELS });
    api = await startApi(providerEnv(server));
    world = await tenantWorld(api);
  });
  afterAll(async () => {
    await killAllChildren();
    await api?.close();
    await server?.close();
  });

  /** A worker child inside a provider call for a fresh memory, then SIGTERM; resolves once it exited. */
  async function terminateMidJob(provider: 'slow' | 'hanging') {
    server.options.latencyMs = 0;
    const worker = await startWorkerProcess(api, server, {
      WORKER_STALLED_INTERVAL_MS: STALLED_MS,
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
    });
    await withOutputOf([worker.process], () => waitForRollout(api, world.tenant.schema));
    // Slow: answers 1.5 s after the request, well within the shutdown budget. Hanging: never.
    if (provider === 'slow') server.options.latencyMs = 1_500;
    else server.fail({ path: '/api/embed', type: 'hang' });
    const before = server.requests.length;
    const memory = await storeAcknowledged(world, distinctContent(`sigterm ${provider}`, 0));
    await withOutputOf([worker.process], () =>
      eventually(
        () => Promise.resolve(embeddedTexts(server, before).some((text) => text.includes(memory.content)) || undefined),
        15_000,
        'the embed request of the job',
      ),
    );
    const signalled = performance.now();
    worker.process.signal('SIGTERM');
    const exit = await worker.process.waitForExit(SHUTDOWN_TIMEOUT_MS + 10_000);
    const tookMs = performance.now() - signalled;
    const messages = worker.process.logLines().map((line) => line.msg as string);
    return { worker, memory, exit, tookMs, messages };
  }

  it('finishes the job it is running and exits 0 within the deadline', async () => {
    const { worker, memory, exit, tookMs, messages } = await terminateMidJob('slow');
    expect({ exit, stderr: worker.process.stderr }).toEqual({ exit: { code: 0, signal: null }, stderr: '' });
    expect(tookMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(messages).toEqual(expect.arrayContaining(['shutting down', 'stopped']));
    expect(messages).not.toContain('shutdown deadline passed; exiting');
    // Finished before the exit, by this worker.
    expect((await embeddedIds(api, world.tenant.schema, [memory.id])).size).toBe(1);
  }, 60_000);

  it('returns a job that outlasts the deadline, and another worker completes it', async () => {
    const { worker, memory, exit, tookMs, messages } = await terminateMidJob('hanging');
    expect(exit).toEqual({ code: 0, signal: null });
    expect(tookMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS);
    expect(messages).not.toContain('shutdown deadline passed; exiting');
    expect((await embeddedIds(api, world.tenant.schema, [memory.id])).size).toBe(0);

    server.options.latencyMs = 0;
    const next = await startWorkerProcess(api, server, { WORKER_STALLED_INTERVAL_MS: STALLED_MS });
    await withOutputOf([worker.process, next.process], () =>
      waitUntilEmbedded(api, world.tenant.schema, [memory.id], 30_000, 'the returned job to be completed'),
    );
    const queue = api.app.get(JobQueue).queue('embeddings');
    await eventually(
      async () => ((await queueState(queue)).pending === 0 ? true : undefined),
      10_000,
      'the embeddings queue to drain',
    );
    expect(await queueState(queue)).toEqual({ pending: 0, failed: 0 });
  }, 90_000);
});
