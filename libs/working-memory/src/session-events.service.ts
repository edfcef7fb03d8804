import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { agentKeyOf, assertProjectAccess, type SessionPrincipal } from '@cairn/access';
import { ProjectResolver } from '@cairn/projects';
import { TenantTransaction } from '@cairn/tenancy';
import { SessionEventsRepository } from './session-events.repository';
import { parseInput, type RecordEventInput, recordEventSchema } from './contract/working-memory.fields';
import { EVENTS_MAX_LIMIT, type EventKind, type SessionEvent } from './contract/working-memory.types';

/**
 * Session events (file written, error, decision, session start/end, custom): a project-wide
 * log every agent of the project writes to and reads, so a briefing shows what the others did.
 */
@Injectable()
export class SessionEventsService {
  constructor(
    private readonly tx: TenantTransaction,
    private readonly projects: ProjectResolver,
    private readonly events: SessionEventsRepository,
  ) {}

  async record(projectSlug: string, principal: SessionPrincipal, input: RecordEventInput): Promise<SessionEvent> {
    assertProjectAccess(principal, projectSlug);
    const event = parseInput(recordEventSchema, input);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      return this.events.insert({
        id: randomUUID(),
        projectId: project.id,
        agentKey: agentKeyOf(principal),
        kind: event.kind,
        summary: event.summary,
        details: event.details ?? null,
      });
    });
  }

  /** Newest first, at most `limit` (capped at 200), optionally only those after `since`. */
  recent(
    projectSlug: string,
    principal: SessionPrincipal,
    options: { limit: number; since?: Date; kind?: EventKind },
  ): Promise<SessionEvent[]> {
    assertProjectAccess(principal, projectSlug);
    const limit = Math.min(Math.max(1, Math.trunc(options.limit)), EVENTS_MAX_LIMIT);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      return this.events.recent(project.id, { ...options, limit });
    });
  }
}
