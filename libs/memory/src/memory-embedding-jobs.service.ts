import { Injectable } from '@nestjs/common';
import { JobQueue } from '@cairn/jobs';
import { TenantContext } from '@cairn/tenancy';
import { type Memory } from './contract/memory.types';

/** A written memory's embedding job: the after-commit step of a store and of a content update. */
@Injectable()
export class MemoryEmbeddingJobs {
  constructor(
    private readonly tenant: TenantContext,
    private readonly jobs: JobQueue,
  ) {}

  /** `deferred` when Redis did not take the job: the periodic sweep embeds the memory later. */
  async enqueue(memory: Memory): Promise<'queued' | 'deferred'> {
    const tenantId = this.tenant.require('MemoryEmbeddingJobs.enqueue').id;
    const queued = await this.jobs.enqueueEmbedding(tenantId, 'memory', [
      { id: memory.id, contentHash: memory.contentHash },
    ]);
    return queued ? 'queued' : 'deferred';
  }
}
