import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type WorkingMemoryEntry } from './contract/working-memory.types';

const COLUMNS = `key, value, importance, created_at AS "createdAt", updated_at AS "updatedAt"`;

/** Private working memory per (project, agent key); every call runs inside a tenant transaction. */
@Injectable()
export class WorkingMemoryRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * Serialises writes to one agent's working memory until the transaction ends, so two
   * concurrent remembers cannot both see room under the cap and overshoot it together.
   */
  @SqlSnapshot({ params: [EX.projectId, `agent:${EX.agentId}`] })
  async lockAgent(projectId: string, agentKey: string): Promise<void> {
    await this.db.query(`SELECT pg_advisory_xact_lock(hashtext('working_memory:' || $1), hashtext($2))`, [
      projectId,
      agentKey,
    ]);
  }

  @SqlSnapshot({
    params: [
      EX.projectId,
      `agent:${EX.agentId}`,
      { key: 'current-task', value: 'Move deploys to Helm', importance: 4 },
    ],
  })
  async upsert(projectId: string, agentKey: string, entry: { key: string; value: string; importance: number }) {
    // clock_timestamp, not now(): several writes in one transaction still get an order.
    const rows = await this.db.query<WorkingMemoryEntry>(
      `INSERT INTO working_memory (project_id, agent_key, key, value, importance, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, clock_timestamp(), clock_timestamp())
       ON CONFLICT (project_id, agent_key, key)
       DO UPDATE SET value = excluded.value, importance = excluded.importance, updated_at = excluded.updated_at
       RETURNING ${COLUMNS}`,
      [projectId, agentKey, entry.key, entry.value, entry.importance],
    );
    return rows[0];
  }

  @SqlSnapshot({ params: [EX.projectId, `agent:${EX.agentId}`] })
  async count(projectId: string, agentKey: string): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM working_memory WHERE project_id = $1 AND agent_key = $2`,
      [projectId, agentKey],
    );
    return rows[0]?.n ?? 0;
  }

  /** Eviction order: lowest importance first, then least recently written; never `keep`. */
  @SqlSnapshot({ params: [EX.projectId, `agent:${EX.agentId}`, 'current-task', 5] })
  evictionCandidates(projectId: string, agentKey: string, keep: string, limit: number): Promise<WorkingMemoryEntry[]> {
    return this.db.query<WorkingMemoryEntry>(
      `SELECT ${COLUMNS} FROM working_memory
       WHERE project_id = $1 AND agent_key = $2 AND key <> $3
       ORDER BY importance ASC, updated_at ASC, key ASC
       LIMIT $4`,
      [projectId, agentKey, keep, limit],
    );
  }

  /** Most important first, then most recently written. */
  @SqlSnapshot({ params: [EX.projectId, `agent:${EX.agentId}`] })
  list(projectId: string, agentKey: string): Promise<WorkingMemoryEntry[]> {
    return this.db.query<WorkingMemoryEntry>(
      `SELECT ${COLUMNS} FROM working_memory WHERE project_id = $1 AND agent_key = $2
       ORDER BY importance DESC, updated_at DESC, key ASC`,
      [projectId, agentKey],
    );
  }

  @SqlSnapshot({ params: [EX.projectId, `agent:${EX.agentId}`, ['current-task']] })
  async delete(projectId: string, agentKey: string, keys: readonly string[]): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `WITH gone AS (
         DELETE FROM working_memory WHERE project_id = $1 AND agent_key = $2 AND key = ANY($3::text[]) RETURNING 1)
       SELECT count(*)::int AS n FROM gone`,
      [projectId, agentKey, keys],
    );
    return rows[0]?.n ?? 0;
  }
}
