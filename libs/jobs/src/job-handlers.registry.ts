import { Injectable } from '@nestjs/common';
import { catalogEntries, type JobName, type QueueName } from './contract/job-catalog';
import { type JobHandler } from './contract/job-handler';

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
