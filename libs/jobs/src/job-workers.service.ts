import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { isConnectionFailure } from '@cairn/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { DelayedError, type Job, MetricsTime, UnrecoverableError, Worker } from 'bullmq';
import { type Redis } from 'ioredis';
import { createBullConnection } from './bullmq-connection';
import { JOB_CATALOG, originOf, QUEUE_NAMES, type QueueName } from './contract/job-catalog';
import { type JobResult, PermanentJobError } from './contract/job-handler';
import { JobHandlers } from './job-handlers.registry';
import { JobMetrics } from './job-metrics.service';
import { JobQueue, withTimeout } from './job-queue.service';

/**
 * Errors that mean "the provider is overloaded or away; try again later" carry the pause
 * they ask for. The worker then pauses the whole queue (BullMQ's rate limiter) and puts the
 * job back without spending one of its attempts.
 */
interface BackpressureSignal {
  readonly backpressureMs: number;
}
const isBackpressure = (error: unknown): error is BackpressureSignal =>
  typeof (error as Partial<BackpressureSignal> | null)?.backpressureMs === 'number';

/** Two weeks of per-minute counts of finished jobs per queue: about 120 kB of Redis each. */
export const METRICS_DATA_POINTS = MetricsTime.TWO_WEEKS;

/** The longest wait between two tries of a job while the database is unreachable. */
const OUTAGE_BACKOFF_CAP_MS = 30_000;

/**
 * How long a job waits after meeting an unreachable database for the `deferrals`-th time in a
 * row: exponential from JOB_BACKOFF_MS up to 30 s, with jitter so the jobs an outage held
 * back do not all return at once.
 */
export function outageBackoffMs(baseMs: number, deferrals: number, random = Math.random): number {
  const exponential = Math.min(OUTAGE_BACKOFF_CAP_MS, baseMs * 2 ** Math.min(deferrals, 20));
  return Math.round(exponential * (0.5 + random() / 2));
}

/**
 * The info line of a finished job, readable as it stands ("embeddings/embed done in 42 ms:
 * embedded 3") and with the same facts as fields. Payloads carry ids only, so nothing of a
 * tenant's content reaches the log.
 */
export function outcomeLine(queue: QueueName, job: Job, result: JobResult, seconds: number): Record<string, unknown> {
  const durationMs = Math.round(seconds * 1000);
  const counts = Object.entries(result.counts ?? {}).map(([name, count]) => `${name} ${count}`);
  const said = [...counts, ...(result.detail ? [result.detail] : [])].join(', ');
  const tenantId = (job.data as { tenantId?: unknown } | undefined)?.tenantId;
  return {
    msg: `${queue}/${job.name} ${result.status} in ${durationMs} ms${said ? `: ${said}` : ''}`,
    queue,
    name: job.name,
    jobId: job.id,
    ...(typeof tenantId === 'string' && { tenantId }),
    status: result.status,
    durationMs,
    ...(result.counts && { counts: result.counts }),
  };
}

/** One BullMQ Worker per queue, dispatching by job name to the registered handler. */
@Injectable()
export class JobWorkers implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('JobWorkers');
  private readonly workers = new Map<QueueName, Worker>();
  private connection?: Redis;

  constructor(
    @Inject(CAIRN_CONFIG) private readonly config: CairnConfig,
    private readonly handlers: JobHandlers,
    private readonly metrics: JobMetrics,
    private readonly jobs: JobQueue,
  ) {}

  onApplicationBootstrap(): void {
    this.handlers.assertComplete();
    this.connection = createBullConnection(this.config, 'consumer');
    for (const queue of QUEUE_NAMES) {
      const worker: Worker = new Worker(queue, (job: Job, token?: string) => this.run(queue, worker, job, token), {
        connection: this.connection,
        prefix: this.config.queues.prefix,
        concurrency: this.config.worker.concurrency[queue],
        stalledInterval: this.config.worker.stalledIntervalMs,
        lockDuration: this.config.worker.stalledIntervalMs,
        maxStalledCount: 2,
        // Completed jobs leave at once (their ids must not block new work), so the queue keeps
        // per-minute counts of finished jobs instead: what the queue overview reports as completed.
        metrics: { maxDataPoints: METRICS_DATA_POINTS },
      });
      worker.on('failed', (job, error) => {
        if (!job) return;
        const final = job.attemptsMade >= (job.opts.attempts ?? 1) || error instanceof UnrecoverableError;
        this.logger.warn({
          msg: final ? 'job failed for good' : 'job failed; will retry',
          queue,
          name: job.name,
          jobId: job.id,
          attempts: job.attemptsMade,
          err: error,
        });
      });
      worker.on('error', (error) => this.logger.warn({ msg: 'worker connection error', queue, err: error }));
      this.workers.set(queue, worker);
    }
  }

  private async run(queue: QueueName, worker: Worker, job: Job, token: string | undefined): Promise<JobResult> {
    const schema = (
      JOB_CATALOG[queue] as Record<string, { safeParse(value: unknown): { success: boolean; data?: unknown } }>
    )[job.name];
    const handler = this.handlers.get(queue, job.name);
    if (!schema || !handler) throw new UnrecoverableError(`unknown job ${queue}/${job.name}`);
    const parsed = schema.safeParse(job.data);
    if (!parsed.success) throw new UnrecoverableError(`malformed payload for ${queue}/${job.name}`);
    await this.started(queue, job);
    const timer = this.metrics.duration.startTimer({ queue, name: job.name });
    try {
      const result = await handler.handle(parsed.data as never, {
        id: job.id ?? '',
        attemptsMade: job.attemptsMade,
        queue,
        name: job.name,
      });
      const seconds = timer({ outcome: result.status });
      this.logger.log(outcomeLine(queue, job, result, seconds));
      return result;
    } catch (error) {
      if (isBackpressure(error)) {
        timer({ outcome: 'throttled' });
        await worker.rateLimit(error.backpressureMs);
        throw Worker.RateLimitError();
      }
      if (isConnectionFailure(error) && token !== undefined) {
        timer({ outcome: 'deferred' });
        await this.deferForOutage(queue, job, token, error);
        throw new DelayedError();
      }
      timer({ outcome: 'error' });
      if (error instanceof PermanentJobError) throw new UnrecoverableError(error.message);
      throw error;
    }
  }

  /**
   * A job's first start: its time in the queue by origin, and, for a bulk job with a fair-share
   * tag, the fair-share clock moved up to it (later arrivals queue from there). A clock that
   * could not be moved (Redis away for a moment) only costs fairness, so the job runs anyway.
   */
  private async started(queue: QueueName, job: Job): Promise<void> {
    if (job.attemptsStarted <= 1) {
      const ready = job.timestamp + (job.opts.delay ?? 0);
      const waited = Math.max(0, (job.processedOn ?? Date.now()) - ready) / 1000;
      this.metrics.wait.observe({ queue, origin: originOf(queue, job.name, job.data) ?? 'none' }, waited);
    }
    const priority = job.opts.priority ?? 0;
    if (priority > 0 && queue === 'embeddings' && this.jobs.fairShare) {
      await withTimeout(this.jobs.fairShare.started(priority), 1_000).catch((error: unknown) =>
        this.logger.debug({ msg: 'could not move the fair-share clock', queue, err: error }),
      );
    }
  }

  /**
   * PostgreSQL is unreachable (a restart, a failover): nothing is wrong with the job, so it
   * goes back to the delayed set without spending an attempt (an outage of any length would
   * otherwise use them all up and leave the job failed), backing off while the outage lasts.
   * BullMQ counts every start (`attemptsStarted`) but only failures as attempts, so the
   * deferrals in a row are the starts no failure accounts for.
   */
  private async deferForOutage(queue: QueueName, job: Job, token: string, error: unknown): Promise<void> {
    const deferrals = Math.max(0, job.attemptsStarted - job.attemptsMade - 1);
    const delayMs = outageBackoffMs(this.config.worker.backoffMs, deferrals);
    const line = { msg: 'database unreachable; job put back without spending an attempt', queue, name: job.name };
    const details = { ...line, jobId: job.id, deferrals: deferrals + 1, delayMs, err: error };
    // Once per job and outage at warn; a long outage's later deferrals would flood the log.
    if (deferrals === 0) this.logger.warn(details);
    else this.logger.debug(details);
    await job.moveToDelayed(Date.now() + delayMs, token);
  }

  /**
   * Lets in-flight jobs finish within the shutdown budget; past it, stops without waiting.
   * Jobs still running then are returned by their expiring locks and rerun by another worker,
   * which is also what happens when Redis is gone and a clean close is impossible.
   */
  async onApplicationShutdown(): Promise<void> {
    const budget = Math.max(1_000, this.config.http.shutdownTimeoutMs - 3_000);
    await Promise.allSettled(
      [...this.workers.values()].map(async (worker) => {
        try {
          await withTimeout(worker.close(), budget);
        } catch {
          await withTimeout(worker.close(true), 1_000).catch(() => undefined);
        }
      }),
    );
    this.connection?.disconnect();
  }
}
