import { Injectable } from '@nestjs/common';
import { type SessionPrincipal } from '@cairn/access';
import { ConflictError } from '@cairn/common';
import { type ProjectRef } from '@cairn/projects';
import { type Memory, type MemoryScopeLevel } from './contract/memory.types';
import { IdempotencyKeysRepository } from './idempotency-keys.repository';
import { MemorySettings } from './memory-settings.service';
import { type PreparedStore } from './memory-store-preparation.service';
import { MemorySupersession } from './memory-supersession.service';
import { MemoriesRepository } from './memories.repository';

/** What the write does: answer a repeat with what the first store wrote, or write this. */
export type StoreDecision =
  | { readonly replay: Memory }
  | {
      readonly replay?: undefined;
      readonly scope: MemoryScopeLevel;
      /** Null for a tenant-wide memory. */
      readonly projectId: string | null;
      /** The memories it supersedes, locked and checked (MemorySupersession.plan). */
      readonly retiring: Memory[];
    };

/**
 * The store pipeline's decision, first in the write's transaction and before anything of the
 * memory is written: the idempotency key (a repeat within 24 h returns the memory the first
 * store wrote; a concurrent repeat waits on the key), the scope (the named one, else the
 * default), and the memories it supersedes (locked; a refusal rolls the claim back too).
 */
@Injectable()
export class MemoryStoreDecision {
  constructor(
    private readonly idempotency: IdempotencyKeysRepository,
    private readonly memories: MemoriesRepository,
    private readonly settings: MemorySettings,
    private readonly supersession: MemorySupersession,
  ) {}

  async decide(
    project: ProjectRef,
    principal: SessionPrincipal,
    prepared: PreparedStore,
    supersedes: readonly string[],
  ): Promise<StoreDecision> {
    const earlier = prepared.claim
      ? await this.idempotency.claim(project.id, principal.tokenId, prepared.claim, prepared.id)
      : undefined;
    if (earlier) return { replay: await this.stored(earlier) };
    // Read in this transaction: one statement, not a transaction of its own per store.
    const scope = prepared.named ?? (await this.defaultScope(principal));
    const retiring = await this.supersession.plan(prepared.id, supersedes, project, principal);
    return { scope, projectId: prepared.tenantWide ? null : project.id, retiring };
  }

  private async stored(id: string): Promise<Memory> {
    const memory = await this.memories.findById(id);
    if (!memory || memory.deletedAt) {
      throw new ConflictError(
        'the memory stored under this idempotency key has since been deleted; use a new key to store it again',
        'idempotency_key_stale',
      );
    }
    return memory;
  }

  /** `project`, or `private` for an agent (a token naming one) when the tenant chose so. */
  private async defaultScope(principal: SessionPrincipal): Promise<MemoryScopeLevel> {
    if (principal.agentId === null) return 'project';
    return this.settings.agentDefaultScope();
  }
}
