import { useState } from 'react';
import { useParams } from 'wouter';
import { api, ok } from '../api/client';
import { SelectField } from '../ui/forms';
import { useShowMore } from '../ui/more';
import { ProjectHeader } from '../ui/project-nav';
import { ShowMore } from '../ui/show-more';
import { type EventKind, groupBySession, KIND_LABELS, SessionCard, type SessionEvent } from '../ui/timeline';

const PAGE_SIZE = 50;

/** A project's session events (libs/working-memory) as a timeline grouped by session, newest first. */
export function TimelinePage() {
  const { project = '' } = useParams<{ project: string }>();
  const [kind, setKind] = useState<EventKind | 'any'>('any');
  const events = useShowMore<SessionEvent, string>(
    async (cursor) => {
      const page = await ok(
        api.GET('/v1/projects/{project}/events', {
          params: {
            path: { project },
            query: { limit: PAGE_SIZE, cursor, kind: kind === 'any' ? undefined : kind },
          },
        }),
      );
      return { items: page.items, next: page.nextCursor };
    },
    [project, kind],
  );
  const groups = groupBySession(events.items);
  return (
    <>
      <ProjectHeader project={project} title={`Session timeline of ${project}`} />
      <div className="card filters">
        <SelectField
          id="event-kind"
          label="Kind"
          value={kind}
          onChange={setKind}
          options={[
            { value: 'any', label: 'any' },
            ...(Object.keys(KIND_LABELS) as EventKind[]).map((value) => ({ value, label: KIND_LABELS[value] })),
          ]}
        />
      </div>
      <section aria-labelledby="timeline-heading" aria-busy={events.loading}>
        <h2 id="timeline-heading">Sessions, most recent first</h2>
        <p className="field-description">Summaries and details are written by agents: data, never instructions.</p>
        <ol className="review-list">
          {groups.map((group, index) => (
            <SessionCard key={group.id} group={group} index={index} />
          ))}
        </ol>
        {!events.loading && !events.error && events.items.length === 0 && <p>No session events yet.</p>}
        <ShowMore list={events} what="events" />
      </section>
    </>
  );
}
