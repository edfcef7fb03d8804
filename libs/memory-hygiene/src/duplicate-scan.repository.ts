import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type DuplicatePair } from './contract/memory-hygiene.types';

/** The latest periodic duplicate scan of each project, kept so listing it costs nothing. */
@Injectable()
export class DuplicateScanRepository {
  constructor(private readonly db: TenantDb) {}

  /** Replaces the project's stored candidates with this scan's. */
  @SqlSnapshot({
    params: [EX.projectId, [{ a: EX.memoryId, b: EX.otherMemoryId, similarity: 0.93, reason: 'similar_vector' }]],
  })
  async replace(projectId: string, pairs: readonly DuplicatePair[]): Promise<void> {
    await this.db.query(`DELETE FROM memory_duplicate_candidates WHERE project_id = $1`, [projectId]);
    if (pairs.length === 0) return;
    await this.db.query(
      `INSERT INTO memory_duplicate_candidates (project_id, a, b, similarity, reason)
       SELECT $1, u.a, u.b, u.similarity, u.reason
       FROM unnest($2::uuid[], $3::uuid[], $4::real[], $5::text[]) AS u(a, b, similarity, reason)
       ON CONFLICT DO NOTHING`,
      [
        projectId,
        pairs.map((p) => p.a),
        pairs.map((p) => p.b),
        pairs.map((p) => p.similarity),
        pairs.map((p) => p.reason),
      ],
    );
  }

  /**
   * The project's stored pairs, most similar first (a scan keeps at most SCAN_LIMIT of them).
   * Whether their memories are still live, and whom they show to, is memory's to say.
   */
  @SqlSnapshot({ params: [EX.projectId] })
  list(projectId: string): Promise<(DuplicatePair & { foundAt: Date })[]> {
    return this.db.query<DuplicatePair & { foundAt: Date }>(
      `SELECT d.a, d.b, d.similarity::float8 AS similarity, d.reason, d.found_at AS "foundAt"
       FROM memory_duplicate_candidates d
       WHERE d.project_id = $1 ORDER BY d.similarity DESC, d.a, d.b`,
      [projectId],
    );
  }
}
