import { Injectable, type OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { catalogEntries, type JobName, type QueueName } from './contract/job-catalog';
import { type HandlesJob, JOB_HANDLER_METADATA, type RegisteredJobHandler } from './contract/job-handler';

/**
 * Handlers by (queue, name): every `@JobHandler` provider of the application, found at boot.
 * The worker asks for `assertComplete()` before it consumes anything, so a job without a
 * handler (or with two) stops the worker from starting rather than failing jobs at run time.
 */
@Injectable()
export class JobHandlers implements OnModuleInit {
  private readonly handlers = new Map<string, RegisteredJobHandler>();

  constructor(@Optional() private readonly discovery?: DiscoveryService) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery?.getProviders() ?? []) {
      const job = wrapper.metatype
        ? (Reflect.getMetadata(JOB_HANDLER_METADATA, wrapper.metatype) as
            { queue: QueueName; name: string } | undefined)
        : undefined;
      if (!job || !wrapper.instance) continue;
      const instance = wrapper.instance as HandlesJob;
      this.register({
        queue: job.queue,
        name: job.name as never,
        handle: (payload, info) => instance.handle(payload, info),
      });
    }
  }

  register<Q extends QueueName, N extends JobName<Q>>(handler: RegisteredJobHandler<Q, N>): void {
    const key = `${handler.queue}/${handler.name}`;
    if (this.handlers.has(key)) throw new Error(`two handlers for job ${key}`);
    this.handlers.set(key, handler as unknown as RegisteredJobHandler);
  }

  get(queue: QueueName, name: string): RegisteredJobHandler | undefined {
    return this.handlers.get(`${queue}/${name}`);
  }

  assertComplete(): void {
    const missing = catalogEntries()
      .map(({ queue, name }) => `${queue}/${name}`)
      .filter((key) => !this.handlers.has(key));
    if (missing.length > 0) throw new Error(`no handler for job(s): ${missing.join(', ')}`);
  }
}
