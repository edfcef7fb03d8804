import { Injectable } from '@nestjs/common';
import { SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { TenantDb } from '@cairn/tenancy';
import { type EventKind, type SessionEvent } from './contract/working-memory.types';

const COLUMNS = `id, kind, summary, details, agent_key AS agent, created_at AS "createdAt"`;

export interface NewSessionEvent {
  readonly id: string;
  readonly projectId: string;
  readonly agentKey: string;
  readonly kind: EventKind;
  readonly summary: string;
  readonly details: Record<string, unknown> | null;
}

/** Session events of a project (every agent's); every call runs inside a tenant transaction. */
@Injectable()
export class SessionEventsRepository {
  constructor(private readonly db: TenantDb) {}

  /**
   * Stored at millisecond precision, as the API shows it: a client passing an event's
   * `createdAt` back as `since` then gets exactly the events after it.
   */
  @SqlSnapshot({
    params: [
      {
        id: EX.eventId,
        projectId: EX.projectId,
        agentKey: `agent:${EX.agentId}`,
        kind: 'decision',
        summary: 'Deploys go through Helm',
        details: { ticket: 'OPS-12' },
      },
    ],
  })
  async insert(event: NewSessionEvent): Promise<SessionEvent | undefined> {
    // ON CONFLICT: a keyed event's id may have been inserted by a concurrent repeat (undefined then).
    const rows = await this.db.query<SessionEvent>(
      `INSERT INTO session_events (id, project_id, agent_key, kind, summary, details, created_at)
       VALUES ($1, $2, $3, $4, $5, $6::jsonb, date_trunc('milliseconds', clock_timestamp()))
       ON CONFLICT (id) DO NOTHING
       RETURNING ${COLUMNS}`,
      [
        event.id,
        event.projectId,
        event.agentKey,
        event.kind,
        event.summary,
        event.details === null ? null : JSON.stringify(event.details),
      ],
    );
    return rows[0];
  }

  @SqlSnapshot({ params: [EX.projectId, EX.eventId] })
  async findById(projectId: string, id: string): Promise<SessionEvent | undefined> {
    const rows = await this.db.query<SessionEvent>(
      `SELECT ${COLUMNS} FROM session_events WHERE project_id = $1 AND id = $2`,
      [projectId, id],
    );
    return rows[0];
  }

  /**
   * Newest first; only events after `since` when given, and only those older than the event
   * `before` names (a page cursor). An id the project does not have matches nothing, so a stale
   * cursor ends the listing rather than restarting it.
   */
  @SqlSnapshot({ params: [EX.projectId, { limit: 20, since: EX.date, kind: 'decision', before: EX.eventId }] })
  recent(
    projectId: string,
    options: { limit: number; since?: Date; kind?: EventKind; before?: string },
  ): Promise<SessionEvent[]> {
    return this.db.query<SessionEvent>(
      `SELECT ${COLUMNS} FROM session_events
       WHERE project_id = $1 AND ($2::timestamptz IS NULL OR created_at > $2) AND ($3::text IS NULL OR kind = $3)
         AND ($5::uuid IS NULL
              OR (created_at, id) < (SELECT created_at, id FROM session_events WHERE project_id = $1 AND id = $5))
       ORDER BY created_at DESC, id DESC
       LIMIT $4`,
      [projectId, options.since ?? null, options.kind ?? null, options.limit, options.before ?? null],
    );
  }

  @SqlSnapshot({ params: [EX.projectId, EX.date] })
  async countSince(projectId: string, since: Date): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM session_events WHERE project_id = $1 AND created_at > $2`,
      [projectId, since],
    );
    return rows[0]?.n ?? 0;
  }
}
