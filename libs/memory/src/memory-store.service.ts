import { Injectable } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { type ProjectRef, ProjectResolver } from '@cairn/projects';
import { TermStatistics } from '@cairn/search';
import { TenantTransaction } from '@cairn/tenancy';
import { type ContradictionWarning, type Memory } from './contract/memory.types';
import { type StoreMemoryInput, type WriteResult } from './contract/memory-write.types';
import { ContradictionsService } from './contradictions.service';
import { projectScope, viewerOf } from './memory-access';
import { MemoryEmbeddingJobs } from './memory-embedding-jobs.service';
import { MemoryStoreDecision } from './memory-store-decision.service';
import { MemoryStorePersistence } from './memory-store-persistence.service';
import { MemoryStorePreparation, type PreparedStore } from './memory-store-preparation.service';

/**
 * `MemoryWriter.store` as a pipeline of named steps:
 *
 * 1. prepare (no transaction): checks, secret redaction or sealing, the new id;
 * 2. look around (a short read-only transaction): the project, and the contradiction search
 *    over the live memories of the scope (bounded: the keyword ranker's 10 best of at most 200
 *    matching rows), so the ranking statement never runs while the write holds its locks;
 * 3. decide (the write's transaction): idempotency claim or replay, scope, supersede plan;
 * 4. persist (same transaction): sealed originals, the row, superseded memories retired, the
 *    contradictions found in step 2 recorded with their reviews;
 * 5. after commit: the embedding job.
 *
 * Inside a caller's transaction (an accepted proposal, promoted working memory) steps 2 to 4
 * join it and the job waits for that commit.
 */
@Injectable()
export class MemoryStore {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly preparation: MemoryStorePreparation,
    private readonly contradictions: ContradictionsService,
    private readonly decision: MemoryStoreDecision,
    private readonly persistence: MemoryStorePersistence,
    private readonly embeddingJobs: MemoryEmbeddingJobs,
    private readonly termStatistics: TermStatistics,
  ) {}

  async store(
    projectSlug: string,
    principal: SessionPrincipal,
    input: StoreMemoryInput,
    idempotencyKey?: string,
  ): Promise<WriteResult> {
    const prepared = await this.preparation.prepare(projectSlug, principal, input, idempotencyKey);
    const { project, warnings } = await this.lookAround(projectSlug, principal, prepared, input.supersedes);
    let embedding: WriteResult['embedding'] = 'queued';
    const written = await this.tx.run(async (): Promise<{ memory: Memory; replayed: boolean }> => {
      const decided = await this.decision.decide(project, principal, prepared, input.supersedes);
      if (decided.replay) return { memory: decided.replay, replayed: true };
      const memory = await this.persistence.persist(project, principal, input, prepared, decided, warnings);
      this.tx.onCommit(async () => {
        embedding = await this.embeddingJobs.enqueue(memory);
        await this.termStatistics.noteWrite();
      });
      return { memory, replayed: false };
    });
    if (written.replayed) {
      return { memory: written.memory, warnings: [], embedding: 'unchanged', redacted: [], replayed: true };
    }
    // Inside a caller's transaction the job waits for that commit and `embedding` stays 'queued'.
    return { memory: written.memory, warnings, embedding, redacted: prepared.redacted };
  }

  /**
   * Reads before the write: the project, and the memories the new one contradicts among those
   * live now (a sealed content is compared with nothing). What this store supersedes is left
   * out, as it is no longer live once the store commits. Projects are never deleted, so the
   * project read here is the one the write uses.
   */
  private lookAround(
    projectSlug: string,
    principal: SessionPrincipal,
    prepared: PreparedStore,
    supersedes: readonly string[],
  ): Promise<{ project: ProjectRef; warnings: ContradictionWarning[] }> {
    return this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      const warnings = prepared.sensitive
        ? []
        : await this.contradictions.find(
            { id: prepared.id, ...prepared.fields },
            projectScope(project, viewerOf(principal)),
            supersedes,
          );
      return { project, warnings };
    });
  }
}
