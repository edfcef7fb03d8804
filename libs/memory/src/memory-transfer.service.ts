import { Injectable } from '@nestjs/common';
import { type Author } from '@cairn/access';
import { TenantTransaction } from '@cairn/tenancy';
import { type MemoryScope } from './contract/memory-filter';
import {
  type ChangedMemory,
  type ExistingMemory,
  type FeedPosition,
  type RestoredMemory,
  type RestoredRelation,
} from './contract/memory-sync.types';
import { type Memory } from './contract/memory.types';
import { MemoryChangesRepository } from './memory-changes.repository';
import { MemoryTransferRepository } from './memory-transfer.repository';

/**
 * What memory-sync's change feed, export and import are made of, over the memories a
 * `MemoryScope` admits by memory's one visibility rule. Each call joins the caller's tenant
 * transaction; the file format, the cursor and who may import what are memory-sync's.
 */
@Injectable()
export class MemoryTransfer {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly changes: MemoryChangesRepository,
    private readonly transfer: MemoryTransferRepository,
  ) {}

  /** The oldest transaction id still running anywhere in the cluster: every one below it has ended. */
  horizon(): Promise<string> {
    return this.tx.run(() => this.changes.horizon());
  }

  /** Changes `scope` hears of after `position` from transactions below `horizon`, at most `limit`. */
  changedSince(
    scope: MemoryScope,
    position: FeedPosition | undefined,
    horizon: string,
    limit: number,
  ): Promise<ChangedMemory[]> {
    return this.tx.run(() => this.changes.changedSince(scope, position, horizon, limit));
  }

  /** Live memories `scope` sees, by id, after `afterId`. */
  exportPage(scope: MemoryScope, afterId: string | null, limit: number): Promise<Memory[]> {
    return this.tx.run(() => this.transfer.exportPage(scope, afterId, limit));
  }

  /** Outgoing relations of `ids` whose target is live and in scope. */
  exportRelations(ids: readonly string[], scope: MemoryScope): Promise<RestoredRelation[]> {
    return this.tx.run(() => this.transfer.exportRelations(ids, scope));
  }

  /** Any memory of the tenant with one of these ids, deleted ones included (import conflicts). */
  findExisting(ids: readonly string[]): Promise<ExistingMemory[]> {
    return this.tx.run(() => this.transfer.findExisting(ids));
  }

  /** Of `ids`, those the project sees (its own or team ones), in any state. */
  idsInScope(ids: readonly string[], projectId: string): Promise<Set<string>> {
    return this.tx.run(() => this.transfer.idsInScope(ids, projectId));
  }

  /** Writes memories back as exported; how many were written (an id written meanwhile is skipped). */
  insertRestored(memories: readonly RestoredMemory[]): Promise<number> {
    return this.tx.run(() => this.transfer.insertRestored(memories));
  }

  /** Sets `superseded_by` once every row it may point to exists. */
  restoreSuperseded(pairs: readonly { id: string; by: string }[]): Promise<void> {
    return this.tx.run(() => this.transfer.restoreSuperseded(pairs));
  }

  /** Idempotent: relations that already exist are kept as they are. */
  insertRelations(relations: readonly RestoredRelation[], by: Author): Promise<void> {
    return this.tx.run(() => this.transfer.insertRelations(relations, by));
  }

  /** Fresh planner statistics for memories after a bulk import. */
  refreshPlannerStatistics(): Promise<void> {
    return this.tx.run(() => this.transfer.refreshPlannerStatistics());
  }
}
