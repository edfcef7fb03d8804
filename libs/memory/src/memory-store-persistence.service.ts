import { Injectable } from '@nestjs/common';
import { authorOf, type SessionPrincipal } from '@cairn/access';
import { type ProjectRef } from '@cairn/projects';
import { SecretRedaction } from '@cairn/secrets';
import { type ContradictionWarning, type Memory } from './contract/memory.types';
import { type StoreMemoryInput } from './contract/memory-write.types';
import { ContradictionsService } from './contradictions.service';
import { memoryContentHash } from './memory-content';
import { type StoreDecision } from './memory-store-decision.service';
import { type PreparedStore } from './memory-store-preparation.service';
import { MemorySupersession } from './memory-supersession.service';
import { MemoriesRepository } from './memories.repository';

/**
 * The store pipeline's writes, in the transaction the decision opened: the sealed originals,
 * the row, the memories it supersedes retired, and the contradictions found before the
 * transaction recorded (relations, and the review queue for another author's memories). All of
 * it commits or none of it does.
 */
@Injectable()
export class MemoryStorePersistence {
  constructor(
    private readonly secrets: SecretRedaction,
    private readonly memories: MemoriesRepository,
    private readonly supersession: MemorySupersession,
    private readonly contradictions: ContradictionsService,
  ) {}

  async persist(
    project: ProjectRef,
    principal: SessionPrincipal,
    input: StoreMemoryInput,
    prepared: PreparedStore,
    decided: Exclude<StoreDecision, { replay: Memory }>,
    warnings: readonly ContradictionWarning[],
  ): Promise<Memory> {
    const author = authorOf(principal);
    await this.secrets.keep(prepared.sealed, {
      projectId: decided.projectId,
      sourceTable: 'memories',
      sourceId: prepared.id,
      writer: author,
    });
    const memory = await this.memories.insert({
      ...input,
      ...prepared.fields,
      id: prepared.id,
      projectId: decided.projectId,
      scope: decided.scope,
      contentHash: memoryContentHash(prepared.fields.content, prepared.fields.keywords),
      author,
      sensitive: prepared.sensitive,
    });
    await this.supersession.retire(memory.id, decided.retiring, principal);
    await this.contradictions.record(project.id, memory.id, warnings, author);
    return memory;
  }
}
