import { Injectable } from '@nestjs/common';
import { assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { BadRequestError } from '@cairn/common';
import { ProjectResolver } from '@cairn/projects';
import { SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import { assertMayModify, assertNotSupersededElsewhere, orNotFound, projectScope, viewerOf } from './memory-access';
import { type MemoryViewer } from './contract/memory-viewer';
import { MemoryRelationsRepository } from './memory-relations.repository';
import { MemoryVersionsRepository } from './memory-versions.repository';
import { type Memory, type MemoryRelation, type RelationType } from './contract/memory.types';
import { MemoriesRepository } from './memories.repository';

/** Typed links between memories, and source-file staleness checks. */
@Injectable()
export class MemoryLinks {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly memories: MemoriesRepository,
    private readonly relations: MemoryRelationsRepository,
    private readonly versions: MemoryVersionsRepository,
    private readonly secrets: SecretRedaction,
  ) {}

  /** Links `fromId` to `toId`; `supersedes` also retires the target from default recall. */
  async link(
    projectSlug: string,
    principal: SessionPrincipal,
    fromId: string,
    input: { toId: string; type: RelationType; note?: string },
  ): Promise<MemoryRelation> {
    assertProjectAccess(principal, projectSlug);
    if (fromId === input.toId)
      throw new BadRequestError('A memory cannot be related to itself', undefined, 'self_relation');
    const clean = await this.secrets.redactFields({ note: input.note });
    return this.tx.run(async () => {
      const scope = projectScope(await this.resolver.resolve(projectSlug), viewerOf(principal));
      const from = orNotFound(await this.memories.findVisible(fromId, scope));
      // The note's originals live as long as the memory it is written from (the relation goes with it).
      const writer = authorOf(principal);
      await this.secrets.keep(clean.sealed, {
        projectId: from.projectId,
        sourceTable: 'memories',
        sourceId: from.id,
        writer,
      });
      // A supersedes link retires its target: locked and checked like MemoryWriter's supersedes.
      if (input.type === 'supersedes') await this.memories.findByIdForUpdate(input.toId);
      const to = orNotFound(await this.memories.findVisible(input.toId, scope));
      // Relating is changing: from one's own memory (or as a maintainer), and a supersedes link
      // also retires its target, so the target must be the caller's to change too.
      assertMayModify(principal, from);
      if (input.type === 'supersedes') {
        assertMayModify(principal, to);
        assertNotSupersededElsewhere([to], from.id);
      }
      const relation = await this.relations.link(from.id, to.id, input.type, clean.fields.note ?? null, writer);
      if (input.type === 'supersedes' && to.supersededBy !== from.id) {
        await this.versions.record(to, authorOf(principal), `superseded by ${from.id}`);
        await this.memories.markSuperseded([to.id], from.id);
      }
      return relation;
    });
  }

  /**
   * The client has the file, the server does not: it sends the file's current content hash
   * and the memory is marked stale when that differs from the hash recorded with the fact.
   */
  verify(
    projectSlug: string,
    viewer: MemoryViewer,
    id: string,
    currentHash: string,
  ): Promise<{ memory: Memory; stale: boolean }> {
    return this.tx.run(async () => {
      const scope = projectScope(await this.resolver.resolve(projectSlug), viewer);
      const memory = orNotFound(await this.memories.findVisible(id, scope));
      if (!memory.source?.contentHash) {
        throw new BadRequestError(
          'This memory records no source content hash to verify against',
          undefined,
          'no_source_hash',
        );
      }
      const stale = memory.source.contentHash !== currentHash;
      return { memory: await this.memories.setStale(id, stale), stale };
    });
  }
}
