import { Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { ConflictError } from '@cairn/common';
import { ProjectResolver } from '@cairn/projects';
import { SecretRedaction } from '@cairn/secrets';
import { TermStatistics } from '@cairn/search';
import { TenantTransaction } from '@cairn/tenancy';
import { type Memory } from './contract/memory.types';
import { type UpdateMemoryInput, type WriteResult } from './contract/memory-write.types';
import { ContentLimit } from './content-limit.service';
import { ContradictionsService } from './contradictions.service';
import { assertAtVersion, assertMayUpdate, orNotFound, projectScope, viewerOf } from './memory-access';
import { memoryContentHash } from './memory-content';
import { MemoryEmbeddingJobs } from './memory-embedding-jobs.service';
import { MemoryShareGrantsRepository } from './memory-share-grants.repository';
import { MemorySupersession } from './memory-supersession.service';
import { MemoryVersionsRepository } from './memory-versions.repository';
import { mergeFields } from './memory-write-fields';
import { redactMemoryTexts } from './memory-text-redaction';
import { MemoriesRepository } from './memories.repository';
import { SensitiveContent, withWhole } from './sensitive-content.service';

/**
 * `MemoryWriter.update`: redaction and sealing before the transaction, then under the row's
 * lock the version, the change, supersedes, the contradiction check of new content (inside the
 * transaction: the merged content is only known under the lock) and its reviews; the embedding
 * job after commit when the content changed.
 */
@Injectable()
export class MemoryUpdate {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly memories: MemoriesRepository,
    private readonly versions: MemoryVersionsRepository,
    private readonly supersession: MemorySupersession,
    private readonly contradictions: ContradictionsService,
    private readonly embeddingJobs: MemoryEmbeddingJobs,
    private readonly limit: ContentLimit,
    private readonly secrets: SecretRedaction,
    private readonly sealing: SensitiveContent,
    private readonly grants: MemoryShareGrantsRepository,
    private readonly termStatistics: TermStatistics,
  ) {}

  async update(
    projectSlug: string,
    principal: SessionPrincipal,
    id: string,
    input: UpdateMemoryInput,
  ): Promise<WriteResult> {
    assertProjectAccess(principal, projectSlug);
    if (input.content !== undefined) this.limit.check(input.content);
    const seal = await this.sealing.planUpdate(projectSlug, principal, id, input);
    const clean = await redactMemoryTexts(this.secrets, input, seal?.whole);
    const redactedInput = clean.fields;
    let embedding: WriteResult['embedding'] = 'unchanged';
    const { memory, warnings } = await this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      await this.memories.findByIdForUpdate(id);
      // Visible includes shared with the caller: a write share's grantee loads a private memory here.
      const before = orNotFound(await this.memories.findVisible(id, projectScope(project, viewerOf(principal))));
      await assertMayUpdate(principal, before, (memoryId) => this.grants.grantsWrite(memoryId, principal));
      assertAtVersion(before, input.expectedVersion);
      const sensitive = seal?.sensitive ?? before.sensitive;
      if (
        seal &&
        (before.sensitive !== seal.wasSensitive ||
          (seal.readHash !== undefined && before.contentHash !== seal.readHash))
      ) {
        throw new ConflictError('the memory changed while this update was prepared; retry', 'concurrent_update');
      }
      await this.secrets.keep(withWhole(clean.sealed, seal?.whole), {
        projectId: before.projectId,
        sourceTable: 'memories',
        sourceId: id,
        writer: authorOf(principal),
      });
      const fields = mergeFields(before, redactedInput);
      const contentHash = memoryContentHash(fields.content, fields.keywords);
      const sourceChanged =
        redactedInput.source !== undefined && redactedInput.source?.contentHash !== before.source?.contentHash;
      await this.versions.record(before, authorOf(principal), redactedInput.reason ?? null);
      // Turning sensitive: no earlier version may keep the content in the clear.
      if (seal?.whole && !before.sensitive) await this.versions.sealContent(id, seal.whole.placeholder);
      const updated = await this.memories.update(id, fields, contentHash, sourceChanged, sensitive);
      const retiring = await this.supersession.plan(id, input.supersedes ?? [], project, principal);
      await this.supersession.retire(id, retiring, principal);
      const contentChanged = contentHash !== before.contentHash;
      const found =
        contentChanged && !sensitive
          ? await this.contradictions.find(updated, projectScope(project, viewerOf(principal)))
          : [];
      // An edit that now contradicts another author's memory goes to the review queue, as a store does.
      await this.contradictions.record(project.id, id, found, authorOf(principal));
      const current = (await this.memories.findById(id)) as Memory;
      if (contentChanged) {
        embedding = 'queued';
        this.tx.onCommit(async () => {
          embedding = await this.embeddingJobs.enqueue(current);
        });
      }
      // Content, tags, keywords and category are all indexed words: any edit may add term deltas.
      this.tx.onCommit(() => this.termStatistics.noteWrite());
      return { memory: current, warnings: found };
    });
    return { memory, warnings, embedding, redacted: clean.redacted };
  }
}
