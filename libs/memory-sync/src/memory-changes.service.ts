import { Injectable } from '@nestjs/common';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { type ChangedMemory, type Memory, MemoryTransfer, type MemoryViewer, projectScope } from '@cairn/memory';
import { type ChangeCursor, encodeCursor, laterCursor } from './contract/change-cursor';

export type ChangeItem =
  | { readonly kind: 'memory'; readonly memory: Memory }
  /** `unshared`: the memory is still there, but no longer shared with the reader. */
  | {
      readonly kind: 'deleted';
      readonly id: string;
      readonly changedAt: Date;
      readonly reason: 'deleted' | 'unshared';
    };

export interface ChangePage {
  readonly items: ChangeItem[];
  readonly nextCursor: string;
  /** More changes are ready now; when false, poll again later with `nextCursor`. */
  readonly hasMore: boolean;
}

/**
 * The incremental change feed: every memory of a project (and the tenant-wide ones) changed
 * since a cursor, deletions included as tombstones. A reader also hears of grants: a memory
 * shared with them appears, one no longer shared becomes a tombstone (reason `unshared`).
 *
 * Why not `updated_at`? Timestamps are taken when a transaction starts, but rows become
 * visible when it commits: a transaction that began earlier and commits later would land
 * behind a cursor a client already holds, and be skipped forever. Every content or state
 * change instead stamps the row with its transaction id (`change_xid = pg_current_xact_id()`),
 * and the feed only hands out rows whose xid is below the snapshot's `xmin`: every
 * transaction below xmin has finished, so no row can still appear later with a smaller xid
 * than one already delivered. Rows of transactions at or above xmin wait for the next poll,
 * even if they are visible now. Ordering by (change_xid, id) with the last pair as the
 * cursor makes paging exact. A row changed again simply reappears with its new xid.
 *
 * The horizon is read before the rows: an older horizon only withholds more, while a newer
 * one could cover a transaction that committed after the rows were read. Read-only
 * transactions take no xid and never hold the horizon back; a long-running writing
 * transaction anywhere in the cluster delays the feed (never loses changes) until it ends.
 */
@Injectable()
export class MemoryChanges {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly resolver: ProjectResolver,
    private readonly changes: MemoryTransfer,
  ) {}

  /** As `viewer` sees the project: others' private memories (and their tombstones) never appear. */
  since(
    projectSlug: string,
    viewer: MemoryViewer,
    cursor: ChangeCursor | undefined,
    limit: number,
  ): Promise<ChangePage> {
    return this.tx.run(async () => {
      const project = await this.resolver.resolve(projectSlug);
      const horizon = await this.changes.horizon();
      const rows = await this.changes.changedSince(projectScope(project, viewer), cursor, horizon, limit + 1);
      const page = rows.slice(0, limit);
      const hasMore = rows.length > limit;
      const last = page[page.length - 1];
      // A full page resumes after its last row; otherwise everything below the horizon was
      // delivered and the next call can start there.
      let next: ChangeCursor =
        hasMore && last ? { kind: 'after', xid: last.xid, id: changedId(last) } : { kind: 'horizon', xid: horizon };
      if (cursor) next = laterCursor(cursor, next);
      return {
        items: page.map((change): ChangeItem => {
          if ('withdrawn' in change) {
            return { kind: 'deleted', id: change.withdrawn.id, changedAt: change.withdrawn.at, reason: 'unshared' };
          }
          const { memory } = change;
          return memory.deletedAt
            ? { kind: 'deleted', id: memory.id, changedAt: memory.deletedAt, reason: 'deleted' }
            : { kind: 'memory', memory };
        }),
        nextCursor: encodeCursor(next),
        hasMore,
      };
    });
  }
}

const changedId = (change: ChangedMemory): string => ('withdrawn' in change ? change.withdrawn.id : change.memory.id);
