import { randomUUID } from 'node:crypto';
import { Injectable, Logger, Module, type OnModuleInit } from '@nestjs/common';
import { type TestingModule } from '@nestjs/testing';
import { MetricsService } from '@cairn/observability';
import { TenancyModule } from '@cairn/tenancy';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import { QueueEvents } from 'bullmq';
import { catalogEntries } from './contract/job-catalog';
import { type JobInfo, type JobResult, PermanentJobError } from './contract/job-handler';
import { JobHandlers } from './job-handlers.registry';
import { JobQueue } from './job-queue.service';
import { QueueAdmin } from './queue-admin.service';
import { JobsModule, JobWorkersModule } from './jobs.module';

/** What the scripted `embed` handler should do for a tenant id. */
const script = new Map<string, () => Promise<JobResult>>();
const calls: { tenantId: string; attemptsMade: number }[] = [];

/**
 * Every job in the catalog gets a handler (the worker refuses to start otherwise); `embed`
 * follows the script, the rest just report. Registered raw, as `register` takes them: these
 * tests are about the worker loop (retries, backpressure), not about entering tenants. Registered on module init, before the workers
 * start on application bootstrap, as the real handlers are.
 */
@Injectable()
class ScriptedHandlers implements OnModuleInit {
  constructor(private readonly handlers: JobHandlers) {}

  onModuleInit(): void {
    for (const { queue, name } of catalogEntries()) {
      this.handlers.register({
        queue: queue,
        name: name as never,
        handle: (payload: { tenantId?: string }, job: JobInfo) => {
          if (name !== 'embed') return Promise.resolve({ status: 'done' as const });
          calls.push({ tenantId: payload.tenantId ?? '', attemptsMade: job.attemptsMade });
          return (script.get(payload.tenantId ?? '') ?? (() => Promise.resolve({ status: 'done' as const })))();
        },
      });
    }
  }
}

@Module({ providers: [ScriptedHandlers] })
class ScriptedHandlersModule {}

describe('job workers over real Redis (integration)', () => {
  let database: TestDatabase;
  let moduleRef: TestingModule;
  let jobs: JobQueue;
  let events: QueueEvents;
  const prefix = `jw${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, testRedisUrl(), { QUEUE_PREFIX: prefix, JOB_BACKOFF_MS: '50' }, 'worker');
    moduleRef = await createDbTestingModule(config, [
      TenancyModule,
      JobsModule,
      ScriptedHandlersModule,
      JobWorkersModule,
    ]);
    jobs = moduleRef.get(JobQueue);
    events = new QueueEvents('embeddings', { connection: { url: testRedisUrl() } as never, prefix });
    await events.waitUntilReady();
  });

  afterAll(async () => {
    await events.close();
    await moduleRef.close();
    await database.drop();
  });

  /**
   * A job's final outcome, observed through queue events. Completed jobs are removed at once,
   * so call this before enqueueing: a fast worker may finish the job before it could be looked up.
   */
  function settled(jobId: string): Promise<{ result?: unknown; failed?: string }> {
    return new Promise((resolve) => {
      const onCompleted = (event: { jobId: string; returnvalue: unknown }) => {
        if (event.jobId === jobId) done({ result: event.returnvalue });
      };
      const onFailed = (event: { jobId: string; failedReason: string }) => {
        if (event.jobId === jobId) done({ failed: event.failedReason });
      };
      const timer = setTimeout(() => done({ failed: `no outcome for ${jobId} within 15 s` }), 15_000);
      function done(value: { result?: unknown; failed?: string }) {
        clearTimeout(timer);
        events.off('completed', onCompleted);
        events.off('failed', onFailed);
        resolve(value);
      }
      events.on('completed', onCompleted);
      events.on('failed', onFailed);
    });
  }

  const handled = (tenantId: string) => calls.filter((call) => call.tenantId === tenantId).length;

  const embed = (tenantId: string, jobId: string) =>
    jobs.enqueue(
      'embeddings',
      'embed',
      { tenantId, target: 'memory', ids: [randomUUID()], origin: 'interactive' },
      { jobId },
    );

  it('runs a job through its handler and keeps its result', async () => {
    const tenantId = randomUUID();
    script.set(tenantId, () => Promise.resolve({ status: 'done', counts: { embedded: 1 } }));
    const outcome = settled(`ok-${tenantId}`);
    expect(await embed(tenantId, `ok-${tenantId}`)).toBe(true);
    expect(await outcome).toEqual({ result: { status: 'done', counts: { embedded: 1 } } });
  });

  it('fails a job with a permanent error once, without retries', async () => {
    const tenantId = randomUUID();
    script.set(tenantId, () => Promise.reject(new PermanentJobError('row will never exist')));
    const outcome = settled(`perm-${tenantId}`);
    await embed(tenantId, `perm-${tenantId}`);
    expect(await outcome).toEqual({ failed: 'row will never exist' });
    expect(handled(tenantId)).toBe(1);
    expect(await (await jobs.queue('embeddings').getJob(`perm-${tenantId}`))!.isFailed()).toBe(true);
  });

  it('retries a transient failure with backoff until it succeeds', async () => {
    const tenantId = randomUUID();
    let attempts = 0;
    script.set(tenantId, () =>
      ++attempts < 3 ? Promise.reject(new Error('flaky')) : Promise.resolve({ status: 'done' }),
    );
    const outcome = settled(`flaky-${tenantId}`);
    await embed(tenantId, `flaky-${tenantId}`);
    expect(await outcome).toEqual({ result: { status: 'done' } });
    expect(attempts).toBe(3);
    expect(calls.filter((call) => call.tenantId === tenantId).map((call) => call.attemptsMade)).toEqual([0, 1, 2]);
  });

  it('answers provider backpressure by pausing the queue, without spending attempts', async () => {
    const tenantId = randomUUID();
    let seen = 0;
    script.set(tenantId, () =>
      ++seen <= 2
        ? Promise.reject(Object.assign(new Error('429'), { backpressureMs: 100 }))
        : Promise.resolve({ status: 'done' }),
    );
    const outcome = settled(`busy-${tenantId}`);
    await embed(tenantId, `busy-${tenantId}`);
    expect(await outcome).toEqual({ result: { status: 'done' } });
    expect(seen).toBe(3);
    expect(calls.filter((call) => call.tenantId === tenantId).map((call) => call.attemptsMade)).toEqual([0, 0, 0]);
  });

  it('fails a malformed payload at once, and refuses to enqueue one', async () => {
    await expect(
      jobs.enqueue('embeddings', 'embed', { tenantId: 'nope', target: 'memory', ids: [] } as never, { jobId: 'bad-1' }),
    ).rejects.toThrow();
    const outcome = settled('bad-2');
    await jobs.queue('embeddings').add('embed', { tenantId: 'not-a-uuid' }, { jobId: 'bad-2', attempts: 5 });
    expect((await outcome).failed).toContain('malformed payload');
    expect(handled('not-a-uuid')).toBe(0);
  });

  it('treats a re-enqueue of pending work as the same job', async () => {
    const tenantId = randomUUID();
    let release: () => void = () => undefined;
    script.set(tenantId, () => new Promise((resolve) => (release = () => resolve({ status: 'done' }))));
    const ids = [randomUUID()];
    const payload = { tenantId, target: 'memory' as const, ids, origin: 'bulk' as const };
    await jobs.enqueue('embeddings', 'embed', payload, { jobId: `dup-${tenantId}` });
    await jobs.enqueue('embeddings', 'embed', payload, { jobId: `dup-${tenantId}` });
    for (let i = 0; i < 100 && calls.filter((c) => c.tenantId === tenantId).length === 0; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    // Listen before releasing: a completed job is removed at once (removeOnComplete).
    const done = new Promise<unknown>((resolve) => {
      const onCompleted = ({ jobId, returnvalue }: { jobId: string; returnvalue: unknown }) => {
        if (jobId !== `dup-${tenantId}`) return;
        events.off('completed', onCompleted);
        resolve(typeof returnvalue === 'string' ? JSON.parse(returnvalue) : returnvalue);
      };
      events.on('completed', onCompleted);
    });
    release();
    expect(await done).toEqual({ status: 'done' });
    expect(handled(tenantId)).toBe(1);
  });

  it('counts completed jobs for the queue overview (always 0 before) and logs each outcome at info', async () => {
    const admin = new QueueAdmin(jobs);
    const completed = async () => (await admin.overview()).find((q) => q.queue === 'embeddings')!.counts.completed;
    const info = jest.spyOn(Logger.prototype, 'log');
    try {
      const before = await completed();
      const tenantId = randomUUID();
      script.set(tenantId, () => Promise.resolve({ status: 'done', counts: { embedded: 3 } }));
      for (const n of [1, 2]) {
        const outcome = settled(`count-${n}-${tenantId}`);
        await embed(tenantId, `count-${n}-${tenantId}`);
        expect(await outcome).toEqual({ result: { status: 'done', counts: { embedded: 3 } } });
      }
      expect((await completed()) - before).toBe(2);
      // One readable line per job, at info: what ran, for whom, how it ended and how long it took.
      const lines = info.mock.calls.map(([line]) => line as Record<string, unknown>);
      expect(lines).toContainEqual(
        expect.objectContaining({
          msg: expect.stringMatching(/^embeddings\/embed done in \d+ ms: embedded 3$/),
          queue: 'embeddings',
          name: 'embed',
          jobId: `count-1-${tenantId}`,
          tenantId,
          status: 'done',
          durationMs: expect.any(Number),
        }),
      );
    } finally {
      info.mockRestore();
    }
  });

  it('records job durations by queue, name and outcome', async () => {
    const text = await moduleRef.get(MetricsService).registry.metrics();
    expect(text).toMatch(/cairn_job_duration_seconds_count\{queue="embeddings",name="embed",outcome="done"\} \d+/);
    expect(text).toMatch(/cairn_job_duration_seconds_count\{queue="embeddings",name="embed",outcome="throttled"\} 2/);
    expect(text).toMatch(/cairn_queue_jobs\{queue="embeddings",state="failed"\} \d+/);
  });
});
