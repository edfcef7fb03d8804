import { Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { type JobPayload } from './contract/job-catalog';
import { type HandlesJob, JobHandler, type JobResult } from './contract/job-handler';
import { JobHandlers } from './job-handlers.registry';

@JobHandler('embeddings', 'embed')
class EmbedHandler implements HandlesJob<'embeddings', 'embed'> {
  handle(payload: JobPayload<'embeddings', 'embed'>): Promise<JobResult> {
    return Promise.resolve({ status: 'done', counts: { ids: payload.ids.length } });
  }
}

@JobHandler('embeddings', 'embed')
class SecondEmbedHandler extends EmbedHandler {}

// A handler declared for a job whose payload it does not take does not compile.
// @ts-expect-error: 'summarize-file' payloads carry a fileSummaryId, not ids
@JobHandler('summaries', 'summarize-file')
class _WrongPayloadHandler implements HandlesJob<'embeddings', 'embed'> {
  handle(payload: JobPayload<'embeddings', 'embed'>): Promise<JobResult> {
    return Promise.resolve({ status: 'skipped', detail: payload.target });
  }
}

async function registryWith(...handlers: (new () => HandlesJob)[]): Promise<JobHandlers> {
  @Module({ imports: [DiscoveryModule], providers: [JobHandlers, ...handlers] })
  class HandlersModule {}
  const module = await Test.createTestingModule({ imports: [HandlersModule] }).compile();
  await module.init();
  return module.get(JobHandlers);
}

describe('JobHandlers discovery', () => {
  it('finds every @JobHandler provider at boot and dispatches to it', async () => {
    const handlers = await registryWith(EmbedHandler);
    const handler = handlers.get('embeddings', 'embed');
    expect(handler).toMatchObject({ queue: 'embeddings', name: 'embed' });
    const payload = { tenantId: crypto.randomUUID(), target: 'memory' as const, ids: [crypto.randomUUID()] };
    const info = { id: 'j1', attemptsMade: 0, queue: 'embeddings' as const, name: 'embed' };
    await expect(handler!.handle(payload as never, info)).resolves.toEqual({ status: 'done', counts: { ids: 1 } });
    expect(handlers.get('embeddings', 'reembed-backfill')).toBeUndefined();
  });

  it('refuses to boot with two handlers for one job', async () => {
    await expect(registryWith(EmbedHandler, SecondEmbedHandler)).rejects.toThrow(
      'two handlers for job embeddings/embed',
    );
  });
});
