import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { CAIRN_CONFIG, type CairnConfig } from '@cairn/config';
import { Queue } from 'bullmq';
import { type Redis } from 'ioredis';
import { createBullConnection } from './bullmq-connection';
import { type EmbeddingTargetName, type QueueName, QUEUE_NAMES } from './job-types';

const ENQUEUE_TIMEOUT_MS = 2_000;

/**
 * The api and gateway only enqueue; the worker consumes. An enqueue that fails is logged
 * and reported, never thrown: the write it follows has committed, and the worker's sweep
 * picks up anything left without a current vector.
 */
@Injectable()
export class JobQueue implements OnApplicationShutdown {
  private readonly logger = new Logger('JobQueue');
  private readonly connection: Redis;
  private readonly queues: Record<QueueName, Queue>;

  constructor(@Inject(CAIRN_CONFIG) config: CairnConfig) {
    this.connection = createBullConnection(config, 'producer');
    const prefix = config.queues.prefix;
    this.queues = Object.fromEntries(
      QUEUE_NAMES.map((name) => {
        const queue = new Queue(name, { connection: this.connection, prefix });
        // BullMQ re-emits connection errors on the queue; unhandled, an 'error' event kills the process.
        queue.on('error', (error) => this.logger.debug({ msg: 'queue connection error', queue: name, err: error }));
        return [name, queue];
      }),
    ) as Record<QueueName, Queue>;
  }

  queue(name: QueueName): Queue {
    return this.queues[name];
  }

  /**
   * The job id is derived from the work (tenant, target, ids and the content versions), so
   * re-enqueueing the same work is harmless while an edit still gets a job of its own.
   */
  async enqueueEmbedding(
    tenantId: string,
    target: EmbeddingTargetName,
    items: readonly { id: string; contentHash: string }[],
  ): Promise<boolean> {
    if (items.length === 0) return true;
    const digest = createHash('sha256')
      .update(items.map((item) => `${item.id}:${item.contentHash}`).join(','))
      .digest('hex')
      .slice(0, 32);
    const jobId = `embed-${target}-${tenantId}-${digest}`;
    const add = this.queues.embeddings.add(
      'embed',
      { tenantId, target, ids: items.map((item) => item.id) },
      {
        jobId,
        attempts: 5,
        backoff: { type: 'exponential', delay: 1_000 },
        removeOnComplete: true,
        removeOnFail: { age: 7 * 86_400 },
      },
    );
    try {
      await withTimeout(add, ENQUEUE_TIMEOUT_MS);
      return true;
    } catch (error) {
      this.logger.warn({ msg: 'could not enqueue embedding job; the sweep will retry', target, err: error });
      return false;
    }
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

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from Redis within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
