import { randomUUID } from 'node:crypto';
import { Module, type Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { type TestingModule } from '@nestjs/testing';
import {
  type LiveTenant,
  TenancyModule,
  TenantContext,
  type TenantRef,
  TenantsService,
  toLiveTenant,
} from '@cairn/tenancy';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import { type JobPayload } from './contract/job-catalog';
import { type HandlesJob, JobHandler, type JobResult, type TenantJobInfo } from './contract/job-handler';
import { JobHandlers, TENANT_GONE } from './job-handlers.registry';

/** What the handlers below saw when they ran: the tenant they were told and the one in context. */
const seen: { told?: LiveTenant; current?: TenantRef }[] = [];

@JobHandler('embeddings', 'embed')
class EmbedHandler implements HandlesJob<'embeddings', 'embed'> {
  constructor(private readonly context: TenantContext) {}

  handle(payload: JobPayload<'embeddings', 'embed'>, { tenant }: TenantJobInfo): Promise<JobResult> {
    seen.push({ told: tenant, current: this.context.current() });
    return Promise.resolve({ status: 'done', counts: { ids: payload.ids.length } });
  }
}

@JobHandler('embeddings', 'embed')
class SecondEmbedHandler extends EmbedHandler {}

/** The one job that works for every tenant: run as it is, in no tenant. */
@JobHandler('maintenance', 'schedule-maintenance')
class ScheduleHandler implements HandlesJob<'maintenance', 'schedule-maintenance'> {
  constructor(private readonly context: TenantContext) {}

  handle(): Promise<JobResult> {
    seen.push({ current: this.context.current() });
    return Promise.resolve({ status: 'done' });
  }
}

// A handler declared for a job whose payload it does not take does not compile.
// @ts-expect-error: 'summarize-file' payloads carry a fileSummaryId, not ids
@JobHandler('summaries', 'summarize-file')
class _WrongPayloadHandler implements HandlesJob<'embeddings', 'embed'> {
  handle(payload: JobPayload<'embeddings', 'embed'>): Promise<JobResult> {
    return Promise.resolve({ status: 'skipped', detail: payload.target });
  }
}

// Nor does one of a job without a tenant that expects to be told one.
// @ts-expect-error: schedule-maintenance carries no tenantId, so its handler is told no tenant
@JobHandler('maintenance', 'schedule-maintenance')
class _TenantlessHandlerWantingATenant implements HandlesJob<'maintenance', 'schedule-maintenance'> {
  // @ts-expect-error: the same mismatch, seen from the interface
  handle(_payload: JobPayload<'maintenance', 'schedule-maintenance'>, { tenant }: TenantJobInfo): Promise<JobResult> {
    return Promise.resolve({ status: 'done', detail: tenant.slug });
  }
}

describe('JobHandlers: discovery, and each job entering its tenant (integration)', () => {
  let database: TestDatabase;
  const modules: TestingModule[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    for (const module of modules) await module.close();
    await database.drop();
  });

  async function registryWith(...handlers: Type<HandlesJob>[]): Promise<TestingModule> {
    @Module({ imports: [DiscoveryModule], providers: [JobHandlers, ...handlers] })
    class HandlersModule {}
    const config = testConfig(database.url, testRedisUrl());
    const module = await createDbTestingModule(config, [TenancyModule, HandlersModule]);
    modules.push(module);
    return module;
  }

  const info = (queue: 'embeddings' | 'maintenance', name: string) => ({
    id: randomUUID(),
    attemptsMade: 0,
    queue,
    name,
  });
  const embedFor = (tenantId: string) => ({ tenantId, target: 'memory' as const, ids: [randomUUID()] });

  it('runs a tenant job in its live tenant, which the handler is told, and skips one of a tenant since deleted', async () => {
    const module = await registryWith(EmbedHandler, ScheduleHandler);
    const handlers = module.get(JobHandlers);
    const tenants = module.get(TenantsService);
    const tenant = toLiveTenant(await tenants.create({ slug: 'jobs-live', name: 'Live' }));
    const embed = handlers.get('embeddings', 'embed')!;
    expect(embed).toMatchObject({ queue: 'embeddings', name: 'embed' });

    seen.length = 0;
    await expect(embed.handle(embedFor(tenant.id) as never, info('embeddings', 'embed'))).resolves.toEqual({
      status: 'done',
      counts: { ids: 1 },
    });
    expect(seen).toEqual([{ told: tenant, current: tenant }]);

    await tenants.delete(tenant.slug);
    await expect(embed.handle(embedFor(tenant.id) as never, info('embeddings', 'embed'))).resolves.toEqual(TENANT_GONE);
    await expect(embed.handle(embedFor(randomUUID()) as never, info('embeddings', 'embed'))).resolves.toEqual(
      TENANT_GONE,
    );
    expect(seen).toHaveLength(1);
    expect(TENANT_GONE).toEqual({ status: 'skipped', detail: 'tenant no longer exists' });

    const schedule = handlers.get('maintenance', 'schedule-maintenance')!;
    await expect(
      schedule.handle({ task: 'duplicate-scan' } as never, info('maintenance', 'schedule-maintenance')),
    ).resolves.toEqual({ status: 'done' });
    expect(seen[1]).toEqual({ current: undefined });
    expect(handlers.get('embeddings', 'reembed-backfill')).toBeUndefined();
  });

  it('refuses two handlers for one job at boot, and names catalog jobs without one', async () => {
    await expect(registryWith(EmbedHandler, SecondEmbedHandler)).rejects.toThrow(
      'two handlers for job embeddings/embed',
    );
    const handlers = (await registryWith(EmbedHandler)).get(JobHandlers);
    expect(() => handlers.assertComplete()).toThrow(/no handler for job\(s\): .*embeddings\/reembed-backfill/);
  });
});
