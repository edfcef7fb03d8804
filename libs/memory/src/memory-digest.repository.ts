import { SNAPSHOT_EXAMPLE as EX, SqlParams, SqlSnapshot } from '@cairn/db';
import { Injectable } from '@nestjs/common';
import { TenantDb } from '@cairn/tenancy';
import { type MemoryScope } from './contract/memory-filter';
import { type RecentMemory } from './contract/memory.types';
import { memoryScopeSql } from './memory-filter.sql';
import { EXAMPLE_SCOPE } from './memory.sql-examples';

/** What a briefing shows of long-term memory: live ones `scope` sees (memory's visibility rule). */
function currentSql(scope: MemoryScope, params: SqlParams): string {
  return `${memoryScopeSql(scope, params, 'm')}
    AND m.deleted_at IS NULL AND m.archived_at IS NULL AND m.superseded_by IS NULL`;
}

/** What long-term memory gained since a moment, and how far embedding lags: the briefing's reads of memories. */
@Injectable()
export class MemoryDigestRepository {
  constructor(private readonly db: TenantDb) {}

  @SqlSnapshot({ params: [EXAMPLE_SCOPE, EX.date] })
  async countSince(scope: MemoryScope, since: Date): Promise<number> {
    const params = new SqlParams();
    const rows = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM memories m
       WHERE ${currentSql(scope, params)} AND m.created_at > ${params.add(since)}`,
      params.values,
    );
    return rows[0]?.n ?? 0;
  }

  /** The most important memories added since `since`, newest first among equals. */
  @SqlSnapshot({ params: [EXAMPLE_SCOPE, EX.date, 10] })
  since(scope: MemoryScope, since: Date, limit: number): Promise<RecentMemory[]> {
    const params = new SqlParams();
    return this.db.query<RecentMemory>(
      `SELECT m.id, m.content, m.category, m.importance, m.scope, m.author_agent_id AS "agentId",
         m.created_at AS "createdAt"
       FROM memories m WHERE ${currentSql(scope, params)} AND m.created_at > ${params.add(since)}
       ORDER BY m.importance DESC, m.created_at DESC, m.id DESC
       LIMIT ${params.add(limit)}`,
      params.values,
    );
  }

  /** The project's live memories with no vector of the active model for their current content. */
  @SqlSnapshot({ params: [EX.projectId, EX.modelId] })
  async withoutVector(projectId: string, modelId: string | null): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM memories m
       WHERE m.project_id = $1 AND m.deleted_at IS NULL
         AND (m.embedding_model IS DISTINCT FROM $2 OR m.embedded_hash IS DISTINCT FROM m.content_hash)`,
      [projectId, modelId],
    );
    return rows[0]?.n ?? 0;
  }
}
