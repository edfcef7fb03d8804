import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';

/** When each agent was last briefed in each project (agent_sessions); inside a tenant transaction. */
@Injectable()
export class AgentSessionsRepository {
  constructor(private readonly db: TenantDb) {}

  /** The agent's last briefing in the project; null before its first. */
  @SqlSnapshot({ params: [EX.projectId, `agent:${EX.agentId}`] })
  async lastSeen(projectId: string, agentKey: string): Promise<Date | null> {
    const rows = await this.db.query<{ at: Date }>(
      'SELECT last_seen_at AS at FROM agent_sessions WHERE project_id = $1 AND agent_key = $2',
      [projectId, agentKey],
    );
    return rows[0]?.at ?? null;
  }

  /** Records this briefing as the agent's latest visit; returns its time. */
  @SqlSnapshot({ params: [EX.projectId, `agent:${EX.agentId}`] })
  async recordVisit(projectId: string, agentKey: string): Promise<Date> {
    const rows = await this.db.query<{ at: Date }>(
      `INSERT INTO agent_sessions (project_id, agent_key, last_seen_at) VALUES ($1, $2, now())
       ON CONFLICT (project_id, agent_key) DO UPDATE SET last_seen_at = excluded.last_seen_at
       RETURNING last_seen_at AS at`,
      [projectId, agentKey],
    );
    return rows[0].at;
  }
}
