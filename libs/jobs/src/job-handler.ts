import { Injectable } from '@nestjs/common';
import { catalogEntries, type JobName, type JobPayload, type QueueName } from './job-catalog';

/** What a handler reports; stored as the job's return value and logged. */
export interface JobResult {
  readonly status: 'done' | 'skipped' | 'partial';
  readonly detail?: string;
  readonly counts?: Readonly<Record<string, number>>;
}

export interface JobInfo {
  readonly id: string;
  readonly attemptsMade: number;
  readonly queue: QueueName;
  readonly name: string;
}

export interface JobHandler<Q extends QueueName = QueueName, N extends JobName<Q> = JobName<Q>> {
  readonly queue: Q;
  readonly name: N;
  handle(payload: JobPayload<Q, N>, job: JobInfo): Promise<JobResult>;
}

/** A handler's failure that retrying cannot fix (bad input, a row that will never exist). */
export class PermanentJobError extends Error {}

/**
 * Handlers by (queue, name). Libraries register theirs on module init; the worker asks for
 * `assertComplete()` at boot, so a job without a handler (or with two) stops the worker from
 * starting rather than failing jobs at run time.
 */
@Injectable()
export class JobHandlers {
  private readonly handlers = new Map<string, JobHandler>();

  register<Q extends QueueName, N extends JobName<Q>>(handler: JobHandler<Q, N>): void {
    const key = `${handler.queue}/${handler.name}`;
    if (this.handlers.has(key)) throw new Error(`two handlers for job ${key}`);
    this.handlers.set(key, handler as unknown as JobHandler);
  }

  get(queue: QueueName, name: string): JobHandler | undefined {
    return this.handlers.get(`${queue}/${name}`);
  }

  assertComplete(): void {
    const missing = catalogEntries()
      .map(({ queue, name }) => `${queue}/${name}`)
      .filter((key) => !this.handlers.has(key));
    if (missing.length > 0) throw new Error(`no handler for job(s): ${missing.join(', ')}`);
  }
}
