import { Injectable } from '@nestjs/common';
import { authorOf, type SessionPrincipal } from '@cairn/access';
import { BadRequestError } from '@cairn/common';
import { type ProjectRef } from '@cairn/projects';
import { assertMayModify, assertNotSupersededElsewhere, projectScope, viewerOf } from './memory-access';
import { MemoryRelationsRepository } from './memory-relations.repository';
import { MemoryVersionsRepository } from './memory-versions.repository';
import { type Memory } from './contract/memory.types';
import { SYSTEM_VIEWER } from './contract/memory-viewer';
import { MemoriesRepository } from './memories.repository';

/**
 * `supersedes` on a write (and a reviewer's resolution): the older memories leave default recall
 * but keep their history. In two steps inside the write's transaction: `plan` locks and checks
 * the memories named (before anything is written, so a refusal writes nothing), `retire` records
 * a version and a `supersedes` relation for each and marks it (once the new memory exists).
 */
@Injectable()
export class MemorySupersession {
  constructor(
    private readonly memories: MemoriesRepository,
    private readonly versions: MemoryVersionsRepository,
    private readonly relations: MemoryRelationsRepository,
  ) {}

  /**
   * The memories among `ids` that memory `memoryId` is to retire, locked until commit (a
   * concurrent supersede of the same memory waits here, then sees ours). 400 `unknown_memory`
   * when one is not visible here; 409 when another memory superseded one already; 403 when the
   * principal may not change one, unless a reviewer decided (`reviewed`: no authorship check).
   */
  async plan(
    memoryId: string,
    ids: readonly string[],
    project: ProjectRef,
    principal: SessionPrincipal,
    reviewed = false,
  ): Promise<Memory[]> {
    const targets = [...new Set(ids)].filter((target) => target !== memoryId);
    if (targets.length === 0) return [];
    await this.memories.findManyByIdForUpdate(targets);
    const viewer = reviewed ? SYSTEM_VIEWER : viewerOf(principal);
    const visible = await this.memories.findManyVisible(targets, projectScope(project, viewer));
    if (visible.length !== targets.length) {
      throw new BadRequestError('supersedes names memories that do not exist here', undefined, 'unknown_memory');
    }
    assertNotSupersededElsewhere(visible, memoryId);
    const fresh = visible.filter((old) => old.supersededBy !== memoryId);
    // Superseding retires the old memory from recall: a change to it, so only its author or a
    // maintainer may (memory.write changes one's own memories; memory.maintain anyone's).
    if (!reviewed) for (const old of fresh) assertMayModify(principal, old);
    return fresh;
  }

  /** Retires what `plan` returned, in favour of `memoryId` (which must exist by now). */
  async retire(memoryId: string, planned: readonly Memory[], principal: SessionPrincipal): Promise<void> {
    if (planned.length === 0) return;
    for (const old of planned) {
      await this.versions.record(old, authorOf(principal), `superseded by ${memoryId}`);
      await this.relations.link(memoryId, old.id, 'supersedes', null, authorOf(principal));
    }
    await this.memories.markSuperseded(
      planned.map((old) => old.id),
      memoryId,
    );
  }
}
