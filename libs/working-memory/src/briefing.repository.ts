import { Injectable } from '@nestjs/common';
import { SqlParams } from '@cairn/db';
import { type MemoryScope, type MemoryScopeLevel, memoryScopeSql } from '@cairn/memory';
import { TenantDb } from '@cairn/tenancy';

export interface LastSeen {
  readonly at: Date;
  /** `agent`: this agent's own last briefing here; `project`: the last briefing of anyone. */
  readonly source: 'agent' | 'project';
}

export interface NewMemoryRow {
  readonly id: string;
  readonly content: string;
  readonly category: string;
  readonly importance: number;
  readonly scope: MemoryScopeLevel;
  readonly agentId: string | null;
  readonly createdAt: Date;
}

/** What a briefing shows of long-term memory: live ones `scope` sees (memory's visibility rule). */
function visibleSql(scope: MemoryScope, params: SqlParams): string {
  return `${memoryScopeSql(scope, params, 'm')}
    AND m.deleted_at IS NULL AND m.archived_at IS NULL AND m.superseded_by IS NULL`;
}

/**
 * What the briefing reads beyond working memory and events: when the agent was last here,
 * what long-term memory gained since, and how far embedding lags. Read-only on `memories`;
 * it writes only the visit (`agent_sessions`, `projects.last_seen_at`).
 */
@Injectable()
export class BriefingRepository {
  constructor(private readonly db: TenantDb) {}

  async lastSeen(projectId: string, agentKey: string): Promise<LastSeen | null> {
    const rows = await this.db.query<{ agent: Date | null; project: Date | null }>(
      `SELECT (SELECT last_seen_at FROM agent_sessions WHERE project_id = $1 AND agent_key = $2) AS agent,
              (SELECT last_seen_at FROM projects WHERE id = $1) AS project`,
      [projectId, agentKey],
    );
    const row = rows[0];
    if (row?.agent) return { at: row.agent, source: 'agent' };
    if (row?.project) return { at: row.project, source: 'project' };
    return null;
  }

  /** Records this briefing as the agent's (and the project's) latest visit; returns its time. */
  async recordVisit(projectId: string, agentKey: string): Promise<Date> {
    // A SELECT on top: TypeORM hands back [rows, count] for a top-level UPDATE.
    const rows = await this.db.query<{ at: Date }>(
      `WITH visit AS (
         INSERT INTO agent_sessions (project_id, agent_key, last_seen_at) VALUES ($1, $2, now())
         ON CONFLICT (project_id, agent_key) DO UPDATE SET last_seen_at = excluded.last_seen_at
         RETURNING last_seen_at),
       project AS (UPDATE projects SET last_seen_at = (SELECT last_seen_at FROM visit) WHERE id = $1 RETURNING 1)
       SELECT last_seen_at AS at FROM visit, (SELECT count(*) FROM project) AS touched`,
      [projectId, agentKey],
    );
    return rows[0].at;
  }

  async countMemoriesSince(scope: MemoryScope, since: Date): Promise<number> {
    const params = new SqlParams();
    const rows = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM memories m
       WHERE ${visibleSql(scope, params)} AND m.created_at > ${params.add(since)}`,
      params.values,
    );
    return rows[0]?.n ?? 0;
  }

  /** The most important memories added since `since`, newest first among equals. */
  memoriesSince(scope: MemoryScope, since: Date, limit: number): Promise<NewMemoryRow[]> {
    const params = new SqlParams();
    return this.db.query<NewMemoryRow>(
      `SELECT m.id, m.content, m.category, m.importance, m.scope, m.author_agent_id AS "agentId",
         m.created_at AS "createdAt"
       FROM memories m WHERE ${visibleSql(scope, params)} AND m.created_at > ${params.add(since)}
       ORDER BY m.importance DESC, m.created_at DESC, m.id DESC
       LIMIT ${params.add(limit)}`,
      params.values,
    );
  }

  /** The project's live memories with no vector of the active model for their current content. */
  async memoriesWithoutVector(projectId: string, modelId: string | null): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM memories m
       WHERE m.project_id = $1 AND m.deleted_at IS NULL
         AND (m.embedding_model IS DISTINCT FROM $2 OR m.embedded_hash IS DISTINCT FROM m.content_hash)`,
      [projectId, modelId],
    );
    return rows[0]?.n ?? 0;
  }
}
