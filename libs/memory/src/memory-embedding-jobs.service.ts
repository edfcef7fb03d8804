import { Injectable } from '@nestjs/common';
import { InlineEmbedding, LATE_INLINE_GRACE_MS } from '@cairn/embeddings';
import { JobQueue } from '@cairn/jobs';
import { TenantContext } from '@cairn/tenancy';
import { type Memory } from './contract/memory.types';
import { memoryEmbeddingText } from './memory-content';

/**
 * A written memory's embedding: the after-commit step of a store and of a content update. A
 * short memory is embedded inline first (within EMBEDDING_INLINE_BUDGET_MS), so the write's
 * answer comes when it is already searchable by meaning; the job is enqueued either way, after
 * that attempt so the worker does not race it for the same text (held back a while when the
 * attempt is still running past the budget), and is a one-read no-op when the inline vector is
 * current.
 */
@Injectable()
export class MemoryEmbeddingJobs {
  constructor(
    private readonly tenant: TenantContext,
    private readonly jobs: JobQueue,
    private readonly inline: InlineEmbedding,
  ) {}

  /** `deferred` when Redis did not take the job: the periodic sweep embeds the memory later. */
  async enqueue(memory: Memory): Promise<'queued' | 'deferred'> {
    const tenantId = this.tenant.require('MemoryEmbeddingJobs.enqueue').id;
    const inline = await this.inline.embed('memory', {
      id: memory.id,
      text: memoryEmbeddingText(memory.content, memory.keywords),
      contentHash: memory.contentHash,
    });
    const queued = await this.jobs.enqueueEmbedding(
      tenantId,
      'memory',
      [{ id: memory.id, contentHash: memory.contentHash }],
      {
        // A write through REST, MCP or a hook: someone may search for it next, ahead of bulk work.
        origin: 'interactive',
        // Still running: the worker would compute the same vector beside it.
        delayMs: inline === 'over_budget' ? LATE_INLINE_GRACE_MS : undefined,
      },
    );
    return queued ? 'queued' : 'deferred';
  }
}
