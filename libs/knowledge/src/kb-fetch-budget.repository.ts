import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';

/** Each project's fetches per UTC day (`kb_fetch_budget`); every call runs inside a tenant transaction. */
@Injectable()
export class KbFetchBudgetRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * Takes one fetch from today's budget: the fetches counted so far including this one and the
   * UTC day they count against, or null when `limit` were already taken. One statement, so
   * replicas racing for the last fetch of the day cannot both get it (the row lock of ON
   * CONFLICT orders them).
   */
  @SqlSnapshot({ params: [EX.projectId, 50] })
  async take(projectId: string, limit: number): Promise<{ fetches: number; day: string } | null> {
    // Past days' rows count nothing any more: each fetch clears its project's, so the table stays one row per project.
    await this.db.query(
      `DELETE FROM kb_fetch_budget WHERE project_id = $1 AND day < (now() AT TIME ZONE 'UTC')::date`,
      [projectId],
    );
    const rows = await this.db.query<{ fetches: number; day: string }>(
      `INSERT INTO kb_fetch_budget AS b (project_id, day, fetches)
       VALUES ($1, (now() AT TIME ZONE 'UTC')::date, 1)
       ON CONFLICT (project_id, day) DO UPDATE SET fetches = b.fetches + 1 WHERE b.fetches < $2
       RETURNING b.fetches, to_char(b.day, 'YYYY-MM-DD') AS day`,
      [projectId, limit],
    );
    return rows[0] ?? null;
  }

  /**
   * Gives back one fetch taken on `day` (a fetch refused before it went out). A fetch taken
   * yesterday is not given back to today, and the count never goes below zero.
   */
  @SqlSnapshot({ params: [EX.projectId, '2026-01-02'] })
  async giveBack(projectId: string, day: string): Promise<void> {
    await this.db.query(
      `UPDATE kb_fetch_budget SET fetches = fetches - 1 WHERE project_id = $1 AND day = $2::date AND fetches > 0`,
      [projectId, day],
    );
  }
}
