import { Injectable } from '@nestjs/common';
import { TenantTransaction } from '@cairn/tenancy';
import { type MemoryScope } from './contract/memory-filter';
import { type RecentMemory } from './contract/memory.types';
import { MemoryDigestRepository } from './memory-digest.repository';

/**
 * What long-term memory gained since a moment, as `scope` may see it (others' private memories
 * are not news), and how many of a project's memories still wait for a vector: working memory's
 * briefing. Each call joins the caller's tenant transaction.
 */
@Injectable()
export class MemoryDigest {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly digest: MemoryDigestRepository,
  ) {}

  /** How many live memories `scope` sees were added after `since`. */
  countSince(scope: MemoryScope, since: Date): Promise<number> {
    return this.tx.run(() => this.digest.countSince(scope, since));
  }

  /** The most important of them, newest first among equals, at most `limit`. */
  since(scope: MemoryScope, since: Date, limit: number): Promise<RecentMemory[]> {
    return this.tx.run(() => this.digest.since(scope, since, limit));
  }

  /** The project's live memories with no vector of `modelId` for their current content. */
  withoutVector(projectId: string, modelId: string | null): Promise<number> {
    return this.tx.run(() => this.digest.withoutVector(projectId, modelId));
  }
}
