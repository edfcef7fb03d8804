import { Injectable } from '@nestjs/common';
import { ProjectVisits } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { AgentSessionsRepository } from './agent-sessions.repository';

export interface LastSeen {
  readonly at: Date;
  /** `agent`: this agent's own last briefing here; `project`: the last briefing of anyone. */
  readonly source: 'agent' | 'project';
}

/**
 * When a briefing was last read, the agent's own (agent_sessions) or, for an agent new to the
 * project, anyone's (the project's, kept by @cairn/projects), and recording this one as both.
 * Each call joins the caller's tenant transaction.
 */
@Injectable()
export class BriefingVisits {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly sessions: AgentSessionsRepository,
    private readonly projects: ProjectVisits,
  ) {}

  lastSeen(projectId: string, agentKey: string): Promise<LastSeen | null> {
    return this.tx.run(async () => {
      const agent = await this.sessions.lastSeen(projectId, agentKey);
      if (agent) return { at: agent, source: 'agent' as const };
      const project = await this.projects.lastSeenAt(projectId);
      return project ? { at: project, source: 'project' as const } : null;
    });
  }

  /** Records this briefing as the agent's and the project's latest visit; returns its time. */
  recordVisit(projectId: string, agentKey: string): Promise<Date> {
    return this.tx.run(async () => {
      const at = await this.sessions.recordVisit(projectId, agentKey);
      await this.projects.recordVisit(projectId, at);
      return at;
    });
  }
}
