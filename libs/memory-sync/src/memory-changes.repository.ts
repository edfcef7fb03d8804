import { SqlParams } from '@cairn/db';
import { Injectable } from '@nestjs/common';

import { TenantDb } from '@cairn/tenancy';
import {
  type Memory,
  MEMORY_COLUMNS,
  MEMORY_FROM,
  type MemoryRow,
  type MemoryScope,
  memoryScopeSql,
  toMemory,
} from '@cairn/memory';
import { type ChangeCursor } from './contract/change-cursor';

export interface ChangedMemory {
  /** xid8 of the transaction that last changed the row's content or state, as a decimal string. */
  readonly xid: string;
  /** Deleted rows included: the feed turns them into tombstones. */
  readonly memory: Memory;
}

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

  /**
   * Rows `scope` sees (its project's, team ones, private ones of the viewer) changed after `cursor` by transactions below
   * `horizon`, in (change_xid, id) order: the order of the `memories_change` index.
   */
  async changedSince(
    scope: MemoryScope,
    cursor: ChangeCursor | undefined,
    horizon: string,
    limit: number,
  ): Promise<ChangedMemory[]> {
    const params = new SqlParams();
    const clauses = [memoryScopeSql(scope, params, 'm'), `m.change_xid < ${params.add(horizon)}::xid8`];
    if (cursor?.kind === 'after') {
      clauses.push(`(m.change_xid, m.id) > (${params.add(cursor.xid)}::xid8, ${params.add(cursor.id)}::uuid)`);
    } else if (cursor?.kind === 'horizon') {
      clauses.push(`m.change_xid >= ${params.add(cursor.xid)}::xid8`);
    }
    const rows = await this.db.query<MemoryRow & { change_xid: string }>(
      `SELECT m.change_xid::text AS change_xid, ${MEMORY_COLUMNS} FROM ${MEMORY_FROM}
       WHERE ${clauses.join(' AND ')}
       ORDER BY m.change_xid, m.id LIMIT ${params.add(limit)}`,
      params.values,
    );
    return rows.map((row) => ({ xid: row.change_xid, memory: toMemory(row) }));
  }
}
