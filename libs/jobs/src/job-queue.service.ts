import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { type JobsOptions, Queue } from 'bullmq';
import { type Redis } from 'ioredis';
import { createBullConnection } from './bullmq-connection';
import { BulkFairShare } from './bulk-fair-share';
import {
  type EmbeddingTargetName,
  type JobName,
  type JobOrigin,
  type JobPayload,
  JOB_CATALOG,
  originOf,
  QUEUE_NAMES,
  type QueueName,
} from './contract/job-catalog';

const ENQUEUE_TIMEOUT_MS = 2_000;

export interface EnqueueOptions {
  /** Derived from the work, so re-enqueueing the same work is harmless. */
  readonly jobId: string;
  readonly delayMs?: number;
  /** Keep the completed job (and its result) this long, for a caller that reads it later. */
  readonly keepResultSeconds?: number;
  /** Attempts instead of the worker default (1: the caller waiting on it wants one answer). */
  readonly attempts?: number;
}

export interface EmbeddingJobOptions {
  /** Who waits for the vectors: a write someone may search for next (`interactive`), or bulk work. */
  readonly origin: JobOrigin;
  /** Appended to the job id (work that must not be deduplicated against the same rows' other job). */
  readonly idSuffix?: string;
  /** Holds the job back (a write whose inline embed is still running gives that call time to finish). */
  readonly delayMs?: number;
}

/**
 * Rows per bulk embed job at most. A running job holds its worker slot until all its rows are
 * embedded, so an interactive job arriving while every slot runs bulk work waits for the first
 * of them to finish: small bulk jobs keep that wait short (docs/embedding-queue.md). Texts reach
 * the model in batches across jobs anyway (EMBEDDING_BATCH_SIZE), so this costs a job, not a call.
 */
export const BULK_JOB_SIZE = 64;

/** The one queue whose jobs are ordered by origin, and its bulk work shared between tenants. */
const FAIR_QUEUE: QueueName = 'embeddings';

/**
 * The api and gateway only enqueue; the worker consumes. An enqueue that fails is logged
 * and reported, never thrown: the write it follows has committed, and the worker's sweeps
 * pick up anything left undone.
 */
@Injectable()
export class JobQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('JobQueue');
  private readonly connection: Redis;
  private readonly queues: Record<QueueName, Queue>;
  private readonly defaults: JobsOptions;
  /** Absent when EMBEDDING_QUEUE_FAIRNESS is off: every job then queues in arrival order. */
  readonly fairShare?: BulkFairShare;

  constructor(@Inject(CAIRN_CONFIG) config: CairnConfig) {
    this.connection = createBullConnection(config, 'producer');
    const prefix = config.queues.prefix;
    this.defaults = {
      attempts: config.worker.attempts,
      // Exponential backoff with jitter, so a provider outage is not met by synchronised retries.
      backoff: { type: 'exponential', delay: config.worker.backoffMs, jitter: 0.5 },
      // Completed jobs leave at once, so a deterministic id blocks only work still pending.
      removeOnComplete: true,
      removeOnFail: { age: 14 * 86_400 },
    };
    this.queues = Object.fromEntries(
      QUEUE_NAMES.map((name) => {
        const queue = new Queue(name, { connection: this.connection, prefix });
        // BullMQ re-emits connection errors on the queue; unhandled, an 'error' event kills the process.
        queue.on('error', (error) => this.logger.debug({ msg: 'queue connection error', queue: name, err: error }));
        return [name, queue];
      }),
    ) as Record<QueueName, Queue>;
    if (config.queues.embeddingFairness) {
      const keys = this.queues[FAIR_QUEUE].keys;
      this.fairShare = new BulkFairShare(this.connection, `${keys['']}fair-share`, keys.prioritized);
    }
  }

  queue(name: QueueName): Queue {
    return this.queues[name];
  }

  /**
   * Validates the payload against the catalog (a producer bug throws here, not in the worker).
   * An embeddings job must say its origin: interactive ones queue without a priority (ahead of
   * every prioritized job), bulk ones with their tenant's fair-share tag (BulkFairShare).
   */
  async enqueue<Q extends QueueName, N extends JobName<Q>>(
    queue: Q,
    name: N,
    payload: JobPayload<Q, N>,
    options: EnqueueOptions,
  ): Promise<boolean> {
    const schema = (JOB_CATALOG[queue] as Record<string, { parse(value: unknown): unknown }>)[name];
    if (!schema) throw new Error(`unknown job ${queue}/${name}`);
    schema.parse(payload);
    const origin = originOf(queue, name, payload);
    if (queue === FAIR_QUEUE && !origin)
      throw new Error(`job ${queue}/${name} must say its origin: interactive or bulk`);
    const jobId = options.jobId.replace(/[^A-Za-z0-9_.-]/g, '-');
    try {
      const priority = await withTimeout(this.priority(queue, origin, payload), ENQUEUE_TIMEOUT_MS);
      await withTimeout(
        this.queues[queue].add(name, payload, {
          ...this.defaults,
          jobId,
          delay: options.delayMs,
          ...(priority > 0 ? { priority } : {}),
          ...(options.keepResultSeconds === undefined ? {} : { removeOnComplete: { age: options.keepResultSeconds } }),
          ...(options.attempts === undefined ? {} : { attempts: options.attempts }),
        }),
        ENQUEUE_TIMEOUT_MS,
      );
      return true;
    } catch (error) {
      this.logger.warn({ msg: 'could not enqueue job; a sweep will catch up', queue, name, err: error });
      return false;
    }
  }

  /**
   * An `embed` job whose id covers the rows and their content versions; bulk work as jobs of at
   * most BULK_JOB_SIZE rows, in order (false when any of them was not taken).
   */
  async enqueueEmbedding(
    tenantId: string,
    target: EmbeddingTargetName,
    items: readonly { id: string; contentHash: string }[],
    options: EmbeddingJobOptions,
  ): Promise<boolean> {
    if (options.origin === 'bulk' && items.length > BULK_JOB_SIZE) {
      let queued = true;
      for (let start = 0; start < items.length; start += BULK_JOB_SIZE) {
        queued =
          (await this.enqueueEmbedding(tenantId, target, items.slice(start, start + BULK_JOB_SIZE), options)) && queued;
      }
      return queued;
    }
    const { origin, idSuffix = '', delayMs } = options;
    if (items.length === 0) return true;
    const digest = createHash('sha256')
      .update(items.map((item) => `${item.id}:${item.contentHash}`).join(','))
      .digest('hex')
      .slice(0, 32);
    return this.enqueue(
      'embeddings',
      'embed',
      { tenantId, target, ids: items.map((item) => item.id), origin },
      { jobId: `embed-${target}-${tenantId}-${digest}${idSuffix}`, ...(delayMs ? { delayMs } : {}) },
    );
  }

  /** 0 (no priority: first) for interactive work and when fairness is off; the tenant's tag for bulk work. */
  private async priority(queue: QueueName, origin: JobOrigin | undefined, payload: unknown): Promise<number> {
    if (queue !== FAIR_QUEUE || origin !== 'bulk' || !this.fairShare) return 0;
    return this.fairShare.priorityFor((payload as { tenantId: string }).tenantId);
  }

  /**
   * Jobs the workers completed since the queue's metrics began (BullMQ counts every finished
   * job when the workers keep metrics, as JobWorkers do): completed jobs themselves are removed.
   */
  async completedCount(name: QueueName): Promise<number> {
    const metrics = await this.queues[name].getMetrics('completed', 0, 0);
    return metrics.meta.count;
  }

  async pendingCount(name: QueueName): Promise<number | null> {
    try {
      const counts = await withTimeout(
        this.queues[name].getJobCounts('waiting', 'active', 'delayed', 'prioritized'),
        1_000,
      );
      return Object.values(counts).reduce((sum, count) => sum + count, 0);
    } catch {
      return null;
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const queues = Object.values(this.queues);
    // Let a connection that is still handshaking settle first: closing it mid-handshake makes
    // BullMQ emit an error after the queue has dropped its listeners.
    await Promise.allSettled(queues.map((queue) => withTimeout(queue.waitUntilReady(), 1_000)));
    await Promise.allSettled(queues.map((queue) => queue.close()));
    this.connection.disconnect();
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
