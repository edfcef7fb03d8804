import { type components } from '../api/openapi';
import { formatDate } from './layout';

export type SessionEvent = components['schemas']['SessionEventListDto_Output']['items'][number];
export type EventKind = SessionEvent['kind'];

export const KIND_LABELS: Record<EventKind, string> = {
  session_start: 'session start',
  session_end: 'session end',
  file_written: 'file written',
  error: 'error',
  decision: 'decision',
  custom: 'other',
};

export interface SessionGroup {
  readonly id: string;
  /** The client's session id (the hooks send it as `details.session`), when the events carry one. */
  readonly session: string | null;
  readonly agent: string;
  readonly events: SessionEvent[];
}

/**
 * Events (newest first) grouped by session. The API has no session column: the Claude Code
 * hooks put the session id in `details.session`; events without one are grouped by agent, and
 * a `session_start` closes its agent's group (reading backwards, older events are an earlier
 * session). Groups are ordered by their newest event; a session spanning pages just grows.
 */
export function groupBySession(events: readonly SessionEvent[]): SessionGroup[] {
  const groups: SessionGroup[] = [];
  const open = new Map<string, SessionGroup>();
  for (const event of events) {
    const session = typeof event.details?.session === 'string' ? event.details.session : null;
    const key = session ? `session:${session}` : `agent:${event.agent}`;
    let group = open.get(key);
    if (!group) {
      group = { id: `${key}#${groups.length}`, session, agent: event.agent, events: [] };
      groups.push(group);
      open.set(key, group);
    }
    group.events.push(event);
    if (!session && event.kind === 'session_start') open.delete(key);
  }
  return groups;
}

/** One session: who, when, and its events newest first. */
export function SessionCard({ group, index }: { readonly group: SessionGroup; readonly index: number }) {
  const heading = `session-${index}`;
  const newest = group.events[0];
  const oldest = group.events[group.events.length - 1];
  return (
    <li>
      <section className="card session" aria-labelledby={heading}>
        <h3 id={heading}>
          {group.session ? `Session ${group.session}` : 'Events without a session id'} · {group.agent}
        </h3>
        <p className="field-description">
          {group.events.length} event{group.events.length === 1 ? '' : 's'}, {formatDate(oldest.createdAt)} to{' '}
          {formatDate(newest.createdAt)}
        </p>
        <ol className="timeline">
          {group.events.map((event) => (
            <EventItem key={event.id} event={event} />
          ))}
        </ol>
      </section>
    </li>
  );
}

function EventItem({ event }: { readonly event: SessionEvent }) {
  // The session id is the group's heading already; the rest of the details stay one click away.
  const { session: _session, ...details } = event.details ?? {};
  const hasDetails = Object.keys(details).length > 0;
  return (
    <li className="timeline-event">
      <time dateTime={event.createdAt}>{formatDate(event.createdAt)}</time>
      <span className={`badge ${event.kind === 'error' ? 'warn' : ''}`}>{KIND_LABELS[event.kind]}</span>
      <span className="pre">{event.summary}</span>
      {hasDetails && (
        <details className="event-details">
          <summary>Details</summary>
          <pre className="pre">{JSON.stringify(details, null, 2)}</pre>
        </details>
      )}
    </li>
  );
}
