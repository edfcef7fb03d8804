import { SNAPSHOT_EXAMPLE as EX, SqlParams, SqlSnapshot } from '@cairn/db';
import { Injectable } from '@nestjs/common';
import { ProjectResolver } from '@cairn/projects';
import { TenantDb } from '@cairn/tenancy';
import { type MemoryScope } from './contract/memory-filter';
import { type ChangedMemory, type FeedPosition } from './contract/memory-sync.types';
import { changesPageSql } from './memory-changes.sql';
import { type MemoryRow, toMemories } from './memory-row.sql';
import { EXAMPLE_SCOPE, EXAMPLE_SYSTEM_SCOPE } from './memory.sql-examples';

type FeedRow = MemoryRow & { feed_xid: string; visible: boolean; noticed_at: Date | null };

/** Reads for the incremental change feed (memory-sync's MemoryChanges says why it is correct). */
@Injectable()
export class MemoryChangesRepository {
  constructor(
    private readonly db: TenantDb,
    private readonly projects: ProjectResolver,
  ) {}

  /**
   * The oldest transaction id still running anywhere in the cluster (or the next one to be
   * assigned when none is). Every transaction below it has committed or aborted.
   */
  @SqlSnapshot({ params: [] })
  async horizon(): Promise<string> {
    const rows = await this.db.query<{ xmin: string }>(`SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS xmin`);
    return rows[0].xmin;
  }

  /** Changes `scope` hears of after `cursor` from transactions below `horizon`: see changesPageSql. */
  @SqlSnapshot(
    {
      name: 'an agent, after a position: rows and grant notices',
      params: [
        {
          projectIds: [EX.projectId],
          includeTenantWide: true,
          viewer: { userId: null, agentId: EX.otherAgentId, tokenId: EX.tokenId },
        },
        { kind: 'after', xid: '812', id: EX.memoryId },
        '900',
        101,
      ],
    },
    { name: 'a reader, from the start', params: [EXAMPLE_SCOPE, undefined, '900', 101] },
    {
      name: 'a job, from a horizon: rows only',
      params: [EXAMPLE_SYSTEM_SCOPE, { kind: 'horizon', xid: '700' }, '900', 101],
    },
  )
  async changedSince(
    scope: MemoryScope,
    cursor: FeedPosition | undefined,
    horizon: string,
    limit: number,
  ): Promise<ChangedMemory[]> {
    const params = new SqlParams();
    const rows = await this.db.query<FeedRow>(changesPageSql(scope, cursor, horizon, limit, params), params.values);
    const memories = await toMemories(rows, this.projects);
    return rows.map((row, index): ChangedMemory => {
      const xid = String(row.feed_xid);
      if (row.visible) return { xid, memory: memories[index] };
      return { xid, withdrawn: { id: row.id, at: row.noticed_at as Date } };
    });
  }
}
