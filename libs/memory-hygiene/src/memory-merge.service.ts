import { Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { BadRequestError, ConflictError, NotFoundError } from '@cairn/common';
import { JobQueue } from '@cairn/jobs';
import { ProjectResolver } from '@cairn/projects';
import { SecretRedaction } from '@cairn/secrets';
import { TenantContext, TenantTransaction } from '@cairn/tenancy';
import {
  assertMayModify,
  type Memory,
  memoryContentHash,
  MemoryMaintenance,
  MemoryRecords,
  orNotFound,
  projectScope,
  viewerOf,
} from '@cairn/memory';
import { mergedFields } from './merge-fields';

export interface MergeInput {
  readonly sourceIds: readonly string[];
  readonly reason?: string;
}

export interface MergeResult {
  readonly memory: Memory;
  readonly sources: string[];
  readonly embedding: 'queued' | 'deferred' | 'unchanged';
}

/**
 * Merges duplicates into a target in one transaction: the target takes the union of their
 * tags and keywords and the best importance and confidence (a new version, the old one kept
 * in history); each source is superseded by the target, with a version recorded and a
 * `supersedes` relation, so it leaves default recall but keeps its history.
 */
@Injectable()
export class MemoryMerger {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly tenant: TenantContext,
    private readonly resolver: ProjectResolver,
    private readonly memories: MemoryRecords,
    private readonly hygiene: MemoryMaintenance,
    private readonly jobs: JobQueue,
    private readonly secrets: SecretRedaction,
  ) {}

  async merge(
    projectSlug: string,
    principal: SessionPrincipal,
    targetId: string,
    input: MergeInput,
  ): Promise<MergeResult> {
    assertProjectAccess(principal, projectSlug);
    const sourceIds = [...new Set(input.sourceIds)];
    if (sourceIds.includes(targetId)) {
      throw new BadRequestError('A memory cannot be merged into itself', undefined, 'self_merge');
    }
    // Kept in the history of every memory involved: stored text, scanned like any.
    const clean = await this.secrets.redactFields({ reason: input.reason });
    const reason = clean.fields.reason;
    const { memory, changed } = await this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      // Row locks first (in id order, so concurrent merges cannot deadlock): the union below
      // must be computed from the rows as they are when it is written.
      await this.hygiene.lockForUpdate([targetId, ...sourceIds]);
      const scope = projectScope(project, viewerOf(principal));
      const target = orNotFound(await this.memories.findVisible(targetId, scope));
      assertMayModify(principal, target);
      if (target.supersededBy) {
        throw new ConflictError(
          `This memory was superseded by ${target.supersededBy}; merge into that one`,
          'target_superseded',
        );
      }
      const visible = await this.memories.findManyVisible(sourceIds, scope);
      const found = new Map(visible.map((memory) => [memory.id, memory]));
      const sources = sourceIds.map((id) => {
        const source = found.get(id);
        if (!source) throw new NotFoundError(`Memory ${id}`);
        return source;
      });
      const by = authorOf(principal);
      await this.secrets.keep(clean.sealed, {
        projectId: target.projectId,
        sourceTable: 'memories',
        sourceId: target.id,
        writer: by,
      });
      const fields = mergedFields(target, sources);
      const contentHash = memoryContentHash(fields.content, fields.keywords);
      await this.memories.recordVersion(target, by, reason ?? `merged ${sourceIds.join(', ')}`);
      await this.memories.update(target.id, fields, contentHash, false);
      for (const source of sources) {
        await this.memories.recordVersion(source, by, `merged into ${target.id}${reason ? `: ${reason}` : ''}`);
        await this.memories.link(target.id, source.id, 'supersedes', reason ?? null, by);
      }
      await this.memories.markSuperseded(sourceIds, target.id);
      return {
        memory: (await this.memories.findById(target.id)) as Memory,
        changed: contentHash !== target.contentHash,
      };
    });
    return { memory, sources: sourceIds, embedding: changed ? await this.enqueue(memory) : 'unchanged' };
  }

  private async enqueue(memory: Memory): Promise<MergeResult['embedding']> {
    const tenantId = this.tenant.require('MemoryMerger.enqueue').id;
    const queued = await this.jobs.enqueueEmbedding(
      tenantId,
      'memory',
      [{ id: memory.id, contentHash: memory.contentHash }],
      { origin: 'interactive' },
    );
    return queued ? 'queued' : 'deferred';
  }
}
