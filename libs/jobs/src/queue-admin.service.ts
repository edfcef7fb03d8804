import { Injectable } from '@nestjs/common';
import { NotFoundError } from '@cairn/common';
import { type Job } from 'bullmq';
import { QUEUE_NAMES, type QueueName } from './contract/job-catalog';
import { JobQueue, withTimeout } from './job-queue.service';

const STATES = ['waiting', 'active', 'delayed', 'prioritized', 'paused', 'failed', 'completed'] as const;
/** Failed jobs examined per listing; enough for an operator, bounded for Redis. */
const FAILED_WINDOW = 1_000;

export interface QueueOverview {
  readonly queue: QueueName;
  readonly counts: Record<(typeof STATES)[number], number>;
}

export interface FailedJob {
  readonly id: string;
  readonly queue: QueueName;
  readonly name: string;
  readonly tenantId: string | null;
  readonly failedReason: string;
  readonly attemptsMade: number;
  readonly failedAt: Date | null;
}

export interface FailedJobPage {
  readonly items: FailedJob[];
  /** Offset of the next page in the newest-first list, or null after the last. */
  readonly nextOffset: number | null;
}

/**
 * What operators see of the queues: depth per state, failed jobs (by tenant when asked),
 * retrying and removing them. Payloads hold ids only, never content, so listing them leaks nothing.
 */
@Injectable()
export class QueueAdmin {
  constructor(private readonly jobs: JobQueue) {}

  /**
   * Jobs per state now, except `completed`: completed jobs leave the queue at once (a kept one
   * would block its deterministic id), so that is how many the workers have completed since the
   * queue's metrics began, from BullMQ's per-minute counts.
   */
  async overview(): Promise<QueueOverview[]> {
    return Promise.all(
      QUEUE_NAMES.map(async (queue) => {
        const [counts, completed] = await withTimeout(
          Promise.all([this.jobs.queue(queue).getJobCounts(...STATES), this.jobs.completedCount(queue)]),
          2_000,
        );
        const now = Object.fromEntries(STATES.map((s) => [s, counts[s] ?? 0])) as QueueOverview['counts'];
        return { queue, counts: { ...now, completed } };
      }),
    );
  }

  /**
   * A page of the failed jobs, newest first. Pages are offsets into that order (BullMQ keeps failed
   * jobs per queue, so a merged order has no stable key); a job failing or leaving between two
   * pages shifts the rest by one, which an operator's list can live with.
   */
  async failed(
    queues: readonly QueueName[],
    tenantId: string | undefined,
    limit: number,
    offset = 0,
  ): Promise<FailedJobPage> {
    const found: FailedJob[] = [];
    for (const queue of queues) {
      const jobs = await withTimeout(this.jobs.queue(queue).getFailed(0, FAILED_WINDOW - 1), 5_000);
      for (const job of jobs) {
        if (tenantId !== undefined && tenantOf(job) !== tenantId) continue;
        found.push(describe(queue, job));
      }
    }
    found.sort((a, b) => (b.failedAt?.getTime() ?? 0) - (a.failedAt?.getTime() ?? 0));
    const end = offset + limit;
    return { items: found.slice(offset, end), nextOffset: end < found.length ? end : null };
  }

  /** Retries one failed job; with `tenantId`, only a job of that tenant. */
  async retry(queue: QueueName, id: string, tenantId?: string): Promise<void> {
    const job = await this.failedJob(queue, id, tenantId);
    await job.retry('failed');
  }

  /**
   * Removes one failed job for good (with `tenantId`, only a job of that tenant). Only failed
   * ones: removing a waiting or running job would silently drop work the write path counts on.
   */
  async remove(queue: QueueName, id: string, tenantId?: string): Promise<void> {
    const job = await this.failedJob(queue, id, tenantId);
    await job.remove();
  }

  /** Retries every failed job (of a tenant, when given); returns how many. */
  async retryAll(queues: readonly QueueName[], tenantId?: string): Promise<number> {
    let retried = 0;
    for (const queue of queues) {
      const jobs = await this.jobs.queue(queue).getFailed(0, FAILED_WINDOW - 1);
      for (const job of jobs) {
        if (tenantId !== undefined && tenantOf(job) !== tenantId) continue;
        await job.retry('failed');
        retried += 1;
      }
    }
    return retried;
  }

  /** The failed job `id` of `queue`; another tenant's job is as unknown as a missing one. */
  private async failedJob(queue: QueueName, id: string, tenantId?: string): Promise<Job> {
    const job = await this.jobs.queue(queue).getJob(id);
    if (!job || (tenantId !== undefined && tenantOf(job) !== tenantId)) throw new NotFoundError('Job');
    if (!(await job.isFailed())) throw new NotFoundError('Failed job');
    return job;
  }
}

function tenantOf(job: Job): string | null {
  const data = job.data as { tenantId?: unknown } | undefined;
  return typeof data?.tenantId === 'string' ? data.tenantId : null;
}

function describe(queue: QueueName, job: Job): FailedJob {
  return {
    id: job.id ?? '',
    queue,
    name: job.name,
    tenantId: tenantOf(job),
    // The first line only: stack traces stay in the worker's logs.
    failedReason: (job.failedReason ?? '').split('\n')[0]?.slice(0, 500) ?? '',
    attemptsMade: job.attemptsMade,
    failedAt: job.finishedOn ? new Date(job.finishedOn) : null,
  };
}
