import { Injectable } from '@nestjs/common';
import { canAccessProject, type SessionPrincipal } from '@cairn/access';
import { NotFoundError } from '@cairn/common';
import { TenantTransaction } from '@cairn/tenancy';
import { type Memory } from './contract/memory.types';
import { MemoriesRepository } from './memories.repository';

/**
 * A memory by id alone, as `cairn://memories/{id}` addresses it (no project in the URI):
 * found only when it lies in a project the token may use or is tenant-wide. Anything else,
 * including a malformed id, is the same "not found" as a missing one, so a URI never tells
 * whether a memory exists elsewhere.
 */
@Injectable()
export class MemoryLookup {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly memories: MemoriesRepository,
  ) {}

  async visibleTo(principal: SessionPrincipal, id: string): Promise<Memory> {
    if (!UUID.test(id)) throw new NotFoundError('Memory');
    const memory = await this.tx.run(() => this.memories.findById(id));
    if (!memory || memory.deletedAt) throw new NotFoundError('Memory');
    if (memory.projectId !== null && (memory.project === null || !canAccessProject(principal, memory.project))) {
      throw new NotFoundError('Memory');
    }
    return memory;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
