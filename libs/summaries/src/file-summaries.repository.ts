import { Injectable } from '@nestjs/common';
import { type Author } from '@cairn/access';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type FileSummary, type FileSummaryText } from './contract/file-summary.types';

const COLUMNS = `f.id, f.project_id AS "projectId", f.path, f.content_hash AS "contentHash", f.status, f.l0, f.l1,
  f.generated_by AS "generatedBy", f.flagged_injection AS "flaggedInjection", f.error,
  f.created_at AS "createdAt", f.updated_at AS "updatedAt"`;

/**
 * File summaries of the current tenant; every call runs inside a tenant transaction.
 * `updated_at` records when a client last sent that content for that path (the worker does
 * not touch it), so "newest for a path" follows what the client most recently had on disk.
 */
@Injectable()
export class FileSummariesRepository {
  constructor(private readonly db: TenantDb) {}

  /** The ready summary of exactly this content, marked as sent again; undefined otherwise. */
  @SqlSnapshot({ params: [EX.projectId, 'src/deploy.ts', EX.contentHash] })
  async touchReady(projectId: string, path: string, contentHash: string): Promise<FileSummary | undefined> {
    // Wrapped in a CTE: TypeORM answers a bare UPDATE with [rows, count] instead of rows.
    const rows = await this.db.query<FileSummary>(
      `WITH f AS (
         UPDATE file_summaries SET updated_at = now()
         WHERE project_id = $1 AND path = $2 AND content_hash = $3 AND status = 'ready'
         RETURNING *)
       SELECT ${COLUMNS} FROM f`,
      [projectId, path, contentHash],
    );
    return rows[0];
  }

  /**
   * Inserts the pending row, or takes over the existing one for this content: a pending row
   * stays pending (one job serves both requests), a failed one becomes pending again, and
   * a row that became ready meanwhile is returned as it is. One statement, so concurrent
   * requests for the same file cannot collide on the unique key.
   */
  @SqlSnapshot({
    params: [
      {
        id: EX.summaryId,
        projectId: EX.projectId,
        path: 'src/deploy.ts',
        contentHash: EX.contentHash,
        content: 'export const deploy = 1;',
        requestedBy: { userId: EX.userId, agentId: EX.agentId, tokenId: EX.tokenId },
      },
    ],
  })
  async upsertPending(row: {
    id: string;
    projectId: string;
    path: string;
    contentHash: string;
    content: string;
    requestedBy: Author;
  }): Promise<FileSummary> {
    const rows = await this.db.query<FileSummary>(
      `INSERT INTO file_summaries AS f (id, project_id, path, content_hash, content, status,
         requested_by_user_id, requested_by_agent_id)
       VALUES ($1, $2, $3, $4, $5, 'pending', $6, $7)
       ON CONFLICT (project_id, path, content_hash) DO UPDATE SET
         updated_at = now(),
         content = CASE WHEN f.status = 'ready' THEN NULL ELSE EXCLUDED.content END,
         status = CASE WHEN f.status = 'failed' THEN 'pending' ELSE f.status END,
         error = CASE WHEN f.status = 'failed' THEN NULL ELSE f.error END
       RETURNING ${COLUMNS}`,
      [row.id, row.projectId, row.path, row.contentHash, row.content, row.requestedBy.userId, row.requestedBy.agentId],
    );
    return rows[0];
  }

  /** The most recently sent version of the path, and the most recently sent one that is ready. */
  @SqlSnapshot({ params: [EX.projectId, 'src/deploy.ts'] })
  async newestForPath(projectId: string, path: string): Promise<{ newest?: FileSummary; ready?: FileSummary }> {
    const rows = await this.db.query<FileSummary & { which: 'newest' | 'ready' }>(
      `(SELECT 'newest' AS which, ${COLUMNS} FROM file_summaries f
         WHERE f.project_id = $1 AND f.path = $2 ORDER BY f.updated_at DESC, f.id DESC LIMIT 1)
       UNION ALL
       (SELECT 'ready' AS which, ${COLUMNS} FROM file_summaries f
         WHERE f.project_id = $1 AND f.path = $2 AND f.status = 'ready' ORDER BY f.updated_at DESC, f.id DESC LIMIT 1)`,
      [projectId, path],
    );
    const pick = (which: 'newest' | 'ready'): FileSummary | undefined => {
      const found = rows.find((row) => row.which === which);
      if (!found) return undefined;
      const { which: _which, ...summary } = found;
      return summary;
    };
    return { newest: pick('newest'), ready: pick('ready') };
  }

  /** For the job: the row and the content it is to summarize; `lock` holds it until commit. */
  @SqlSnapshot({ name: 'read', params: [EX.summaryId] }, { name: 'locked', params: [EX.summaryId, true] })
  async findForJob(id: string, lock = false): Promise<(FileSummary & { content: string | null }) | undefined> {
    const rows = await this.db.query<FileSummary & { content: string | null }>(
      `SELECT ${COLUMNS}, f.content FROM file_summaries f WHERE f.id = $1 ${lock ? 'FOR UPDATE' : ''}`,
      [id],
    );
    return rows[0];
  }

  /** Stores the summary and drops the content, which was kept only to be summarized. */
  @SqlSnapshot({
    params: [
      EX.summaryId,
      {
        l0: 'Deploy entry point',
        l1: 'Exports the deploy step.',
        generatedBy: 'ollama:llama3.2',
        flaggedInjection: false,
      },
    ],
  })
  async complete(id: string, summary: FileSummaryText): Promise<void> {
    await this.db.query(
      `UPDATE file_summaries SET status = 'ready', l0 = $2, l1 = $3, generated_by = $4, flagged_injection = $5,
         content = NULL, error = NULL
       WHERE id = $1`,
      [id, summary.l0, summary.l1, summary.generatedBy, summary.flaggedInjection],
    );
  }

  @SqlSnapshot({ params: [EX.summaryId, 'the model did not answer'] })
  async fail(id: string, error: string): Promise<void> {
    await this.db.query(`UPDATE file_summaries SET status = 'failed', error = $2, content = NULL WHERE id = $1`, [
      id,
      error,
    ]);
  }
}
