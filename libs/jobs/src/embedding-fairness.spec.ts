import { randomUUID } from 'node:crypto';
import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { type TestingModule } from '@nestjs/testing';
import { MetricsService } from '@cairn/observability';
import { TenancyModule } from '@cairn/tenancy';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import { catalogEntries, type JobOrigin } from './contract/job-catalog';
import { type JobResult } from './contract/job-handler';
import { JobHandlers } from './job-handlers.registry';
import { BULK_JOB_SIZE, JobQueue } from './job-queue.service';
import { JobsModule, JobWorkersModule } from './jobs.module';

/** Each `embed` job the worker ran, in the order it ran them (one at a time: concurrency 1). */
const ran: { tenantId: string; origin: JobOrigin | undefined }[] = [];

/** A few ms per embed job, so a backlog of a few hundred lasts while a test adds to it. */
const JOB_MS = 8;

@Injectable()
class RecordingHandlers implements OnModuleInit {
  constructor(private readonly handlers: JobHandlers) {}

  onModuleInit(): void {
    for (const { queue, name } of catalogEntries()) {
      this.handlers.register({
        queue,
        name: name as never,
        handle: async (payload: { tenantId?: string; origin?: JobOrigin }): Promise<JobResult> => {
          if (name !== 'embed') return { status: 'done' };
          ran.push({ tenantId: payload.tenantId ?? '', origin: payload.origin });
          await new Promise((resolve) => setTimeout(resolve, JOB_MS));
          return { status: 'done' };
        },
      });
    }
  }
}

@Module({ providers: [RecordingHandlers] })
class RecordingHandlersModule {}

const item = () => [{ id: randomUUID(), contentHash: randomUUID() }];
const ranFor = (tenantId: string) => ran.filter((job) => job.tenantId === tenantId).length;
/** Index in `ran` of the last job of `tenantId`. */
const lastOf = (tenantId: string) => ran.map((job) => job.tenantId).lastIndexOf(tenantId);

async function until(done: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** `count` bulk jobs of `tenantId`, one after another (as an import enqueues its batches). */
async function bulk(jobs: JobQueue, tenantId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    expect(await jobs.enqueueEmbedding(tenantId, 'memory', item(), { origin: 'bulk' })).toBe(true);
  }
}

/** Runs `enqueue` with the queue paused, so the worker meets the whole backlog at once. */
async function whilePaused(jobs: JobQueue, enqueue: () => Promise<void>): Promise<void> {
  const queue = jobs.queue('embeddings');
  await queue.pause();
  try {
    await enqueue();
  } finally {
    await queue.resume();
  }
}

async function interactive(jobs: JobQueue, tenantId: string, count: number): Promise<void> {
  for (let i = 0; i < count; i += 1) {
    expect(await jobs.enqueueEmbedding(tenantId, 'memory', item(), { origin: 'interactive' })).toBe(true);
  }
}

describe('embedding queue fairness over real Redis (integration)', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await database.drop();
  });

  /** A worker consuming one embed job at a time on a queue prefix of its own. */
  async function start(fairness: boolean): Promise<{ moduleRef: TestingModule; jobs: JobQueue }> {
    const config = testConfig(
      database.url,
      testRedisUrl(),
      {
        QUEUE_PREFIX: `fair${randomUUID().slice(0, 8)}`,
        WORKER_CONCURRENCY_EMBEDDINGS: '1',
        EMBEDDING_QUEUE_FAIRNESS: String(fairness),
      },
      'worker',
    );
    const moduleRef = await createDbTestingModule(config, [
      TenancyModule,
      JobsModule,
      RecordingHandlersModule,
      JobWorkersModule,
    ]);
    return { moduleRef, jobs: moduleRef.get(JobQueue) };
  }

  async function stop(moduleRef: TestingModule, jobs: JobQueue): Promise<void> {
    await jobs
      .queue('embeddings')
      .obliterate({ force: true })
      .catch(() => undefined);
    await moduleRef.close();
  }

  /**
   * Tenant A's import is being embedded when tenant B writes: how many of A's jobs ran after
   * B's writes were all queued and before B's last one ran, and how many A had left then.
   */
  async function importThenWrites(jobs: JobQueue): Promise<{ aRanMeanwhile: number; aLeft: number }> {
    const a = randomUUID();
    const b = randomUUID();
    const backlog = 300;
    await whilePaused(jobs, () => bulk(jobs, a, backlog));
    await until(() => ranFor(a) >= 10, "the worker to be into A's import");
    await interactive(jobs, b, 10);
    const aWhenQueued = ranFor(a);
    await until(() => ranFor(b) === 10, "B's writes to be embedded");
    const aBeforeB = ran.slice(0, lastOf(b)).filter((job) => job.tenantId === a).length;
    await until(() => ranFor(a) === backlog, "A's import to be embedded", 60_000);
    return { aRanMeanwhile: aBeforeB - aWhenQueued, aLeft: backlog - aBeforeB };
  }

  describe('with fairness on (the default)', () => {
    let moduleRef: TestingModule;
    let jobs: JobQueue;

    beforeAll(async () => ({ moduleRef, jobs } = await start(true)));
    afterAll(() => stop(moduleRef, jobs));

    it("embeds B's interactive writes before A's import drains: at most the job in flight goes first", async () => {
      const { aRanMeanwhile, aLeft } = await importThenWrites(jobs);
      // Once B's writes are queued, at most the one job the worker already holds runs before them.
      expect(aRanMeanwhile).toBeLessThanOrEqual(1);
      expect(aLeft).toBeGreaterThan(150);
    });

    it('takes two tenants’ imports in turn, one job each, when both are queued', async () => {
      const a = randomUUID();
      const b = randomUUID();
      await whilePaused(jobs, async () => {
        await bulk(jobs, a, 60);
        await bulk(jobs, b, 20);
      });
      await until(() => ranFor(a) === 60 && ranFor(b) === 20, 'both imports to be embedded');
      const order = ran.filter((job) => job.tenantId === a || job.tenantId === b).map((job) => job.tenantId);
      // A's 60 were all queued first; still B's 20 alternate with A's first 20.
      expect(order.slice(0, 40)).toEqual(Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? a : b)));
      expect(order.slice(40)).toEqual(Array(40).fill(a));
    });

    it("lets an import that arrives mid-way through another wait at most two of the other's jobs per job of its own", async () => {
      const a = randomUUID();
      const b = randomUUID();
      await whilePaused(jobs, () => bulk(jobs, a, 300));
      await until(() => ranFor(a) >= 20, "the worker to be into A's import");
      await bulk(jobs, b, 20);
      await until(() => ranFor(b) === 20, "B's import to be embedded");
      const bFirst = ran.findIndex((job) => job.tenantId === b);
      const aBetween = ran.slice(bFirst, lastOf(b)).filter((job) => job.tenantId === a).length;
      // The bound for B's k-th job is k+1 of A's: B's 20 finish within 2·21 of A's, not A's 260 left.
      expect(aBetween).toBeLessThanOrEqual(2 * 21);
      expect(ranFor(a)).toBeLessThan(300);
      await until(() => ranFor(a) === 300, "A's import to be embedded", 60_000);
    });

    it('puts interactive jobs in the wait list and bulk ones in the prioritized set, deduplicated by job id', async () => {
      const tenantId = randomUUID();
      const queue = jobs.queue('embeddings');
      const rows = item();
      await queue.pause();
      try {
        for (let i = 0; i < 2; i += 1) {
          await jobs.enqueueEmbedding(tenantId, 'memory', rows, { origin: 'bulk' });
          await jobs.enqueueEmbedding(tenantId, 'memory', rows, { origin: 'interactive', idSuffix: '-write' });
        }
        const prioritized = await queue.getPrioritized();
        const waiting = await queue.getWaiting();
        expect(prioritized.map((job) => job.data)).toEqual([
          { tenantId, target: 'memory', ids: [rows[0].id], origin: 'bulk' },
        ]);
        expect(prioritized[0].opts.priority).toBeGreaterThan(0);
        expect(waiting.map((job) => job.data)).toEqual([
          { tenantId, target: 'memory', ids: [rows[0].id], origin: 'interactive' },
        ]);
        expect(waiting[0].id).toMatch(/-write$/);
      } finally {
        await queue.resume();
      }
      await until(() => ranFor(tenantId) === 2, 'both jobs to run');
    });

    it('splits bulk work into jobs of BULK_JOB_SIZE rows, in order, and keeps interactive work whole', async () => {
      const tenantId = randomUUID();
      const rows = Array.from({ length: 2 * BULK_JOB_SIZE + 1 }, () => item()[0]);
      const queue = jobs.queue('embeddings');
      await whilePaused(jobs, async () => {
        expect(await jobs.enqueueEmbedding(tenantId, 'memory', rows, { origin: 'bulk' })).toBe(true);
        expect(await jobs.enqueueEmbedding(tenantId, 'memory', rows, { origin: 'interactive' })).toBe(true);
        const bulkJobs = (await queue.getPrioritized()).filter((job) => job.data.tenantId === tenantId);
        const sizes = bulkJobs
          .sort((x, y) => (x.opts.priority ?? 0) - (y.opts.priority ?? 0))
          .map((job) => (job.data as { ids: string[] }).ids.length);
        expect(sizes).toEqual([BULK_JOB_SIZE, BULK_JOB_SIZE, 1]);
        const waiting = (await queue.getWaiting()).filter((job) => job.data.tenantId === tenantId);
        expect(waiting.map((job) => (job.data as { ids: string[] }).ids.length)).toEqual([rows.length]);
      });
      await until(() => ranFor(tenantId) === 4, 'the four jobs to run');
    });

    it('refuses an embed job without an origin, or with one it does not know', async () => {
      const payload = { tenantId: randomUUID(), target: 'memory' as const, ids: [randomUUID()] };
      await expect(jobs.enqueue('embeddings', 'embed', payload, { jobId: 'no-origin' })).rejects.toThrow(
        'job embeddings/embed must say its origin: interactive or bulk',
      );
      await expect(
        jobs.enqueue('embeddings', 'embed', { ...payload, origin: 'urgent' } as never, { jobId: 'bad-origin' }),
      ).rejects.toThrow('must be interactive or bulk');
      await expect(
        jobs.enqueueEmbedding(payload.tenantId, 'memory', item(), { origin: 'soon' as never }),
      ).rejects.toThrow('must be interactive or bulk');
      expect(await jobs.queue('embeddings').getJob('no-origin')).toBeUndefined();
    });

    it('records the time jobs waited in the queue by origin', async () => {
      const text = await moduleRef.get(MetricsService).registry.metrics();
      expect(text).toMatch(/cairn_job_queue_wait_seconds_count\{queue="embeddings",origin="interactive"\} [1-9]\d*/);
      expect(text).toMatch(/cairn_job_queue_wait_seconds_count\{queue="embeddings",origin="bulk"\} [1-9]\d*/);
    });
  });

  describe('with fairness off (EMBEDDING_QUEUE_FAIRNESS=false)', () => {
    let moduleRef: TestingModule;
    let jobs: JobQueue;

    beforeAll(async () => ({ moduleRef, jobs } = await start(false)));
    afterAll(() => stop(moduleRef, jobs));

    it("queues B's interactive writes behind all of A's import, in arrival order (the baseline)", async () => {
      const { aRanMeanwhile, aLeft } = await importThenWrites(jobs);
      expect(aLeft).toBe(0);
      expect(aRanMeanwhile).toBeGreaterThan(150);
    });
  });
});
