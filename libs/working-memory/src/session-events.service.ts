import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { agentKeyOf, assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { ProjectResolver } from '@cairn/projects';
import { SecretRedaction } from '@cairn/secrets';
import { TenantTransaction } from '@cairn/tenancy';
import { SessionEventsRepository } from './session-events.repository';
import { parseInput, type RecordEventInput, recordEventSchema } from './contract/working-memory.fields';
import {
  EVENTS_MAX_LIMIT,
  type EventKind,
  type RecordedEvent,
  type SessionEvent,
} from './contract/working-memory.types';

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
    private readonly secrets: SecretRedaction,
  ) {}

  async record(projectSlug: string, principal: SessionPrincipal, input: RecordEventInput): Promise<RecordedEvent> {
    assertProjectAccess(principal, projectSlug);
    const event = parseInput(recordEventSchema, input);
    // The summary and every string in the details, each redacted in place.
    const details = event.details ?? null;
    const strings: string[] = [];
    collectStrings(details, strings);
    const clean = await this.secrets.redact([event.summary, ...strings]);
    const [summary, ...cleanStrings] = clean.texts;
    const id = randomUUID();
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      await this.secrets.keep(clean.sealed, {
        projectId: project.id,
        sourceTable: 'session_events',
        sourceId: id,
        writer: authorOf(principal),
      });
      const stored = await this.events.insert({
        id,
        projectId: project.id,
        agentKey: agentKeyOf(principal),
        kind: event.kind,
        summary,
        details: replaceStrings(details, cleanStrings[Symbol.iterator]()) as typeof details,
      });
      return { ...stored, redacted: clean.redacted };
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

/** Every string in a JSON value, depth first (object values in key order, then array items). */
function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value !== null && typeof value === 'object')
    for (const item of Object.values(value)) collectStrings(item, into);
}

/** The same JSON value with its strings taken, in collectStrings' order, from `next`. */
function replaceStrings(value: unknown, next: Iterator<string>): unknown {
  if (typeof value === 'string') return next.next().value as string;
  if (Array.isArray(value)) return value.map((item) => replaceStrings(item, next));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, replaceStrings(item, next)]));
  }
  return value;
}
