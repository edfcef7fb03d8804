import { SqlParams } from '@cairn/db';
import { Injectable } from '@nestjs/common';

import { TenantDb } from '@cairn/tenancy';
import { type Memory, type MemoryRow, type MemoryScope, toMemory } from '@cairn/memory';
import { type ChangeCursor } from './contract/change-cursor';
import { changesPageSql } from './memory-changes.sql';

/** One entry of the feed, at its position (xid, memory id). */
export type ChangedMemory =
  /** Deleted rows included: the feed turns them into tombstones. */
  | { readonly xid: string; readonly memory: Memory }
  /** A grant notice for a memory the viewer may no longer see (unshared, rule removed, tag taken off). */
  | { readonly xid: string; readonly withdrawn: { readonly id: string; readonly at: Date } };

type FeedRow = MemoryRow & { feed_xid: string; visible: boolean; noticed_at: Date | null };

/** Reads for the incremental change feed; see MemoryChanges for why it is correct. */
@Injectable()
export class MemoryChangesRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * The oldest transaction id still running anywhere in the cluster (or the next one to be
   * assigned when none is). Every transaction below it has committed or aborted.
   */
  async horizon(): Promise<string> {
    const rows = await this.db.query<{ xmin: string }>(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`);
    return rows[0].xmin;
  }

  /** Changes `scope` hears of after `cursor` from transactions below `horizon`: see changesPageSql. */
  async changedSince(
    scope: MemoryScope,
    cursor: ChangeCursor | undefined,
    horizon: string,
    limit: number,
  ): Promise<ChangedMemory[]> {
    const params = new SqlParams();
    const rows = await this.db.query<FeedRow>(changesPageSql(scope, cursor, horizon, limit, params), params.values);
    return rows.map((row): ChangedMemory => {
      const xid = String(row.feed_xid);
      if (row.visible) return { xid, memory: toMemory(row) };
      return { xid, withdrawn: { id: row.id, at: row.noticed_at as Date } };
    });
  }
}
