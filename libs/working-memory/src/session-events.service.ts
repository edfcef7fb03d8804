import { createHash, randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { agentKeyOf, assertProjectAccess, authorOf, type SessionPrincipal } from '@cairn/access';
import { ConflictError } from '@cairn/common';
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
    const agentKey = agentKeyOf(principal);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      // With a key, the id derives from it: a repeat finds the event the first call recorded.
      const id = event.idempotencyKey ? keyedEventId(project.id, agentKey, event.idempotencyKey) : randomUUID();
      if (event.idempotencyKey) {
        const earlier = await this.events.findById(project.id, id);
        if (earlier) return { ...assertSameEvent(earlier, event.kind, summary), redacted: [] };
      }
      await this.secrets.keep(clean.sealed, {
        projectId: project.id,
        sourceTable: 'session_events',
        sourceId: id,
        writer: authorOf(principal),
      });
      const stored = await this.events.insert({
        id,
        projectId: project.id,
        agentKey,
        kind: event.kind,
        summary,
        details: replaceStrings(details, cleanStrings[Symbol.iterator]()) as typeof details,
      });
      // A concurrent repeat inserted it first: this transaction rolls back its secrets and says so.
      if (!stored)
        throw new ConflictError('the idempotency key is being used by another request; retry', 'idempotency_key_busy');
      return { ...stored, redacted: clean.redacted };
    });
  }

  /** Newest first, at most `limit` (capped at 200), optionally only those after `since`. */
  recent(
    projectSlug: string,
    principal: SessionPrincipal,
    options: { limit: number; since?: Date; kind?: EventKind },
  ): Promise<SessionEvent[]> {
    return this.page(projectSlug, principal, options).then((page) => page.items);
  }

  /**
   * A page of `recent`: `cursor` is the `nextCursor` of the page before (the id of its oldest
   * event), so a reader walks back through every event, not only the newest 200.
   */
  page(
    projectSlug: string,
    principal: SessionPrincipal,
    options: { limit: number; since?: Date; kind?: EventKind; cursor?: string },
  ): Promise<SessionEventPage> {
    assertProjectAccess(principal, projectSlug);
    const limit = Math.min(Math.max(1, Math.trunc(options.limit)), EVENTS_MAX_LIMIT);
    return this.tx.run(async () => {
      const project = await this.projects.resolve(projectSlug);
      // One more than asked says whether another page follows, without a count.
      const rows = await this.events.recent(project.id, {
        limit: limit + 1,
        since: options.since,
        kind: options.kind,
        before: options.cursor,
      });
      const items = rows.slice(0, limit);
      const last = items[items.length - 1];
      return { items, nextCursor: rows.length > limit && last ? last.id : null };
    });
  }
}

export interface SessionEventPage {
  readonly items: SessionEvent[];
  /** Pass as `cursor` for the next (older) page; null when this page reached the oldest event. */
  readonly nextCursor: string | null;
}

/**
 * The event id an idempotency key stands for, per project and agent: a UUID-shaped digest, so
 * the primary key itself makes a repeat find the first event, with no table of keys to expire.
 */
function keyedEventId(projectId: string, agentKey: string, key: string): string {
  const hex = createHash('sha256').update(`session-event\0${projectId}\0${agentKey}\0${key}`).digest('hex');
  // Version 8 (custom) and the RFC 9562 variant, so it is a well-formed UUID.
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${((parseInt(hex[16], 16) & 0x3) | 0x8).toString(16)}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A repeat under a key must be the same event; another one is the client reusing a key. */
function assertSameEvent(earlier: SessionEvent, kind: EventKind, summary: string): SessionEvent {
  if (earlier.kind === kind && earlier.summary === summary) return earlier;
  throw new ConflictError(
    'this idempotency key was already used for a different event; use a new key for a new event',
    'idempotency_key_reused',
  );
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
