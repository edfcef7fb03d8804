import { Injectable } from '@nestjs/common';
import { assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { ProjectResolver } from '@cairn/projects';
import { TermStatistics } from '@cairn/search';
import { TenantTransaction } from '@cairn/tenancy';
import { type StoreMemoryInput, type UpdateMemoryInput, type WriteResult } from './contract/memory-write.types';
import { SYSTEM_VIEWER } from './contract/memory-viewer';
import { assertAtVersion, assertMayDelete, orNotFound, projectScope, viewerOf } from './memory-access';
import { MemoryStore } from './memory-store.service';
import { MemorySupersession } from './memory-supersession.service';
import { MemoryUpdate } from './memory-update.service';
import { MemoriesRepository } from './memories.repository';

export type { StoreMemoryInput, UpdateMemoryInput, WriteResult } from './contract/memory-write.types';

/**
 * Store, update and delete. Every way a memory is written (REST, MCP tools, accepted extraction
 * proposals, promoted working memory, extraction jobs) comes through here, so the project scope,
 * the content limit and secret redaction (content, tags, keywords) are applied once, for all of
 * them: a store by the `MemoryStore` pipeline, an update by `MemoryUpdate`.
 */
@Injectable()
export class MemoryWriter {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly memories: MemoriesRepository,
    private readonly storing: MemoryStore,
    private readonly updating: MemoryUpdate,
    private readonly supersession: MemorySupersession,
    private readonly termStatistics: TermStatistics,
  ) {}

  /**
   * With an `idempotencyKey`, a repeat of the same store by the same token in the same project
   * (within 24 h) returns the memory the first one stored instead of storing it again.
   */
  store(
    projectSlug: string,
    principal: SessionPrincipal,
    input: StoreMemoryInput,
    idempotencyKey?: string,
  ): Promise<WriteResult> {
    return this.storing.store(projectSlug, principal, input, idempotencyKey);
  }

  update(projectSlug: string, principal: SessionPrincipal, id: string, input: UpdateMemoryInput): Promise<WriteResult> {
    return this.updating.update(projectSlug, principal, id, input);
  }

  /**
   * Soft delete: the row stays for history and for the change feed's tombstone. With
   * `expectedVersion`, only if nobody changed the memory since that version.
   */
  async delete(projectSlug: string, principal: SessionPrincipal, id: string, expectedVersion?: number): Promise<void> {
    assertProjectAccess(principal, projectSlug);
    await this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      if (expectedVersion !== undefined) await this.memories.findByIdForUpdate(id);
      const memory = orNotFound(await this.memories.findVisible(id, projectScope(project, viewerOf(principal))));
      assertMayDelete(principal, memory);
      assertAtVersion(memory, expectedVersion);
      await this.memories.softDelete(memory.id);
      // Its words leave the statistics as negative deltas.
      this.tx.onCommit(() => this.termStatistics.noteWrite());
    });
  }

  /**
   * A reviewer's resolution of a contradiction (memory-review): `memoryId` supersedes `oldId`
   * through the same path as `supersedes` on a write (locks, version, relation), whoever wrote
   * the old one; the caller checked the reviewer's role. Joins the caller's transaction.
   */
  async supersedeAfterReview(
    projectSlug: string,
    principal: SessionPrincipal,
    memoryId: string,
    oldId: string,
  ): Promise<void> {
    await this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      // The reviewer's role decides here, not authorship: both memories as the queue shows them.
      const memory = orNotFound(await this.memories.findVisible(memoryId, projectScope(project, SYSTEM_VIEWER)));
      const retiring = await this.supersession.plan(memory.id, [oldId], project, principal, true);
      await this.supersession.retire(memory.id, retiring, principal);
    });
  }
}
