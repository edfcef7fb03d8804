import { Injectable } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { NotFoundError } from '@cairn/common';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { orNotFound, viewerOf } from './memory-access';
import { type Memory } from './contract/memory.types';
import { MemoriesRepository } from './memories.repository';

/**
 * A memory by id alone, as `cairn://memories/{id}` addresses it (no project in the URI):
 * found only when it lies in a project the token may use or is a team memory, and, when
 * private, was written by or given to the caller (memoryScopeSql). Anything else,
 * including a malformed id, is the same "not found" as a missing one, so a URI never tells
 * whether a memory exists elsewhere.
 */
@Injectable()
export class MemoryLookup {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly memories: MemoriesRepository,
    private readonly resolver: ProjectResolver,
  ) {}

  async visibleTo(principal: SessionPrincipal, id: string): Promise<Memory> {
    if (!UUID.test(id)) throw new NotFoundError('Memory');
    return this.tx.run(async () => {
      const projects = await this.resolver.resolveMany(principal.projects);
      const scope = { projectIds: projects.map((p) => p.id), includeTenantWide: true, viewer: viewerOf(principal) };
      return orNotFound(await this.memories.findVisible(id, scope));
    });
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
