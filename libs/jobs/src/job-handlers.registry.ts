import { Injectable, type OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { TenantEntry } from '@cairn/tenancy';
import { carriesTenant, catalogEntries, type JobName, type QueueName } from './contract/job-catalog';
import {
  type HandlesJob,
  type JobInfo,
  JOB_HANDLER_METADATA,
  type JobResult,
  type RegisteredJobHandler,
} from './contract/job-handler';

/** What a tenant's job reports when the tenant was deleted after the job was queued. */
export const TENANT_GONE: JobResult = { status: 'skipped', detail: 'tenant no longer exists' };

/**
 * Handlers by (queue, name): every `@JobHandler` provider of the application, found at boot.
 * The worker asks for `assertComplete()` before it consumes anything, so a job without a
 * handler (or with two) stops the worker from starting rather than failing jobs at run time.
 *
 * This is also where a job enters its tenant: a handler of a job whose payload carries a
 * `tenantId` is registered wrapped in `TenantEntry.runIfLive`, so it runs in the live tenant's
 * context (and is told the tenant) or, the tenant being gone, not at all. No handler looks its
 * tenant up or enters it by hand.
 */
@Injectable()
export class JobHandlers implements OnModuleInit {
  private readonly handlers = new Map<string, RegisteredJobHandler>();

  constructor(
    private readonly entry: TenantEntry,
    @Optional() private readonly discovery?: DiscoveryService,
  ) {}

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
        handle: carriesTenant(job.queue, job.name)
          ? (payload, info) => this.inTenant(instance, payload as { tenantId: string }, info)
          : (payload, info) => instance.handle(payload, info as never),
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

  private inTenant(handler: HandlesJob, payload: { tenantId: string }, info: JobInfo): Promise<JobResult> {
    return this.entry.runIfLive(
      payload.tenantId,
      (tenant) => handler.handle(payload as never, { ...info, tenant }),
      () => TENANT_GONE,
    );
  }
}
