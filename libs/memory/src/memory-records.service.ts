import { Injectable } from '@nestjs/common';
import { TenantTransaction } from '@cairn/tenancy';
import { type MemoryScope } from './contract/memory-filter';
import { type Memory, type MemoryFields, type MemoryRelation, type RelationType } from './contract/memory.types';
import { MemoryRelationsRepository } from './memory-relations.repository';
import { MemoryVersionsRepository } from './memory-versions.repository';
import { MemoriesRepository } from './memories.repository';

type ChangedBy = { readonly userId: string | null; readonly agentId: string | null };

/**
 * Memory rows for the libraries that extend memory (memory-hygiene): lookups, and the
 * versioned changes a merge is made of. Each call joins the caller's tenant transaction, so a
 * use case built from several of them stays one unit of work. Who may do what is the caller's
 * to check, with memory's own rules (findVisible with projectScope, assertMayModify).
 */
@Injectable()
export class MemoryRecords {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly memories: MemoriesRepository,
    private readonly versions: MemoryVersionsRepository,
    private readonly relations: MemoryRelationsRepository,
  ) {}

  /** Any state, deleted included. */
  findById(id: string): Promise<Memory | null> {
    return this.tx.run(() => this.memories.findById(id));
  }

  /** The live memory `scope` may see, or null (memory's one visibility rule). */
  findVisible(id: string, scope: MemoryScope): Promise<Memory | null> {
    return this.tx.run(() => this.memories.findVisible(id, scope));
  }

  /** The live memories among `ids` that `scope` may see, in no particular order. */
  findManyVisible(ids: readonly string[], scope: MemoryScope): Promise<Memory[]> {
    return this.tx.run(() => this.memories.findManyVisible(ids, scope));
  }

  /** Live memories among `ids`, in no particular order. */
  findManyById(ids: readonly string[]): Promise<Memory[]> {
    return this.tx.run(() => this.memories.findManyById(ids));
  }

  /** Keeps what `before` was in its history: who changed it, and why (`extra`: e.g. the scope it had). */
  recordVersion(
    before: Memory,
    changedBy: ChangedBy,
    reason: string | null,
    extra: { readonly scope?: string } = {},
  ): Promise<void> {
    return this.tx.run(() => this.versions.record(before, changedBy, reason, extra));
  }

  /** Replaces the writable fields; bumps the version and the change cursor. */
  update(id: string, fields: MemoryFields, contentHash: string, sourceChanged: boolean): Promise<Memory> {
    return this.tx.run(() => this.memories.update(id, fields, contentHash, sourceChanged));
  }

  /** Marks `ids` as replaced by `byId`: they leave default recall but keep their history. */
  markSuperseded(ids: readonly string[], byId: string): Promise<void> {
    return this.tx.run(() => this.memories.markSuperseded(ids, byId));
  }

  /** Idempotent: linking twice returns the existing relation. */
  link(fromId: string, toId: string, type: RelationType, note: string | null, by: ChangedBy): Promise<MemoryRelation> {
    return this.tx.run(() => this.relations.link(fromId, toId, type, note, by));
  }
}
