import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { type DataSource } from 'typeorm';

/** Where tenants live (`cairn.tenants.cluster`, control migration 0012), on the home cluster. */
@Injectable()
export class TenantPlacementRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The tenant's cluster and the move under way, if any; undefined when no such tenant. */
  @SqlSnapshot({ params: [EX.tenantId] })
  async find(tenantId: string): Promise<{ cluster: string; movingTo: string | null } | undefined> {
    const [row] = await this.dataSource.query<{ cluster: string; moving_to: string | null }[]>(
      `SELECT cluster, moving_to FROM cairn.tenants WHERE id = $1`,
      [tenantId],
    );
    return row ? { cluster: row.cluster, movingTo: row.moving_to } : undefined;
  }

  /** Live tenants per cluster (clusters with none are absent). */
  @SqlSnapshot({ params: [] })
  async liveCounts(): Promise<Map<string, number>> {
    const rows = await this.dataSource.query<{ cluster: string; tenants: number }[]>(
      `SELECT cluster, count(*)::int AS tenants FROM cairn.tenants WHERE deleted_at IS NULL GROUP BY cluster`,
    );
    return new Map(rows.map((row) => [row.cluster, row.tenants]));
  }

  /** Marks a move as started; false when the tenant is gone or already moving. */
  @SqlSnapshot({ params: [EX.tenantId, 'eu-2'] })
  async startMove(tenantId: string, target: string): Promise<boolean> {
    const rows = await this.dataSource.query<unknown[]>(
      `UPDATE cairn.tenants SET moving_to = $2 WHERE id = $1 AND deleted_at IS NULL AND moving_to IS NULL RETURNING id`,
      [tenantId, target],
    );
    return rows.length > 0;
  }

  /** Ends a move: `cluster` is where the tenant lives now (the target, or the source when aborted). */
  @SqlSnapshot({ params: [EX.tenantId, 'eu-2'] })
  async endMove(tenantId: string, cluster: string): Promise<void> {
    await this.dataSource.query(`UPDATE cairn.tenants SET cluster = $2, moving_to = NULL WHERE id = $1`, [
      tenantId,
      cluster,
    ]);
  }
}
