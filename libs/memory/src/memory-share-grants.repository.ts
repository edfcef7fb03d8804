import { SNAPSHOT_EXAMPLE as EX, SqlParams, SqlSnapshot } from '@cairn/db';
import { Injectable } from '@nestjs/common';
import { TenantDb } from '@cairn/tenancy';
import { memorySharedWithSql, type ShareViewer } from './memory-shares.sql';

/** What the shares of a memory allow a caller; asked afresh on every request (never cached). */
@Injectable()
export class MemoryShareGrantsRepository {
  constructor(private readonly db: TenantDb) {}

  /** Whether a share or a live tag rule gives `viewer` write on memory `memoryId`. */
  @SqlSnapshot({ params: [EX.memoryId, { userId: null, agentId: EX.otherAgentId }] })
  async grantsWrite(memoryId: string, viewer: ShareViewer): Promise<boolean> {
    const params = new SqlParams();
    const id = params.add(memoryId);
    const rows = await this.db.query<{ shared: boolean }>(
      `SELECT ${memorySharedWithSql('m', viewer, params, 'write')} AS shared FROM memories m WHERE m.id = ${id}::uuid`,
      params.values,
    );
    return rows[0]?.shared === true;
  }
}
