import { useState } from 'react';
import { Label, Radio, RadioGroup } from 'react-aria-components';
import { useParams } from 'wouter';
import { api, ok } from '../api/client';
import { Notice } from '../ui/forms';
import { useShowMore } from '../ui/more';
import { useCan } from '../ui/permissions';
import { ProjectHeader } from '../ui/project-nav';
import { type QueuedReview, ReviewItem } from '../ui/reviews';
import { ShowMore } from '../ui/show-more';

type Status = 'pending' | 'approved' | 'rejected';
const PAGE_SIZE = 20;

/**
 * A project's review queue (libs/memory-review): promotions to a wider scope and contradictions
 * between authors, oldest first. Orchestrators and admins decide, always with a reason.
 */
export function ReviewsPage() {
  const { project = '' } = useParams<{ project: string }>();
  const can = useCan();
  const mayReview = can('memory.review');
  const [status, setStatus] = useState<Status>('pending');
  const [decided, setDecided] = useState<string | undefined>(undefined);
  const list = useShowMore<QueuedReview, string>(
    async (cursor) => {
      // Without the permission the API answers 403; say so once instead of showing its error.
      if (!mayReview) return { items: [], next: null };
      const page = await ok(
        api.GET('/v1/projects/{project}/reviews', {
          params: { path: { project }, query: { status, limit: PAGE_SIZE, cursor } },
        }),
      );
      return { items: page.items, next: page.nextCursor };
    },
    [project, status, mayReview],
  );
  return (
    <>
      <ProjectHeader project={project} title={`Review queue of ${project}`} />
      {!mayReview ? (
        <Notice>
          Only orchestrators and admins see and decide the review queue. Propose a promotion from a memory's page.
        </Notice>
      ) : (
        <>
          <RadioGroup
            className="radio-group card"
            value={status}
            onChange={(value) => {
              setDecided(undefined);
              setStatus(value as Status);
            }}
            orientation="horizontal"
          >
            <Label>Show</Label>
            <Radio value="pending">Pending</Radio>
            <Radio value="approved">Approved</Radio>
            <Radio value="rejected">Rejected</Radio>
          </RadioGroup>
          {decided && <Notice>{decided}</Notice>}
          <section aria-labelledby="reviews-heading" aria-busy={list.loading}>
            <h2 id="reviews-heading">{status[0].toUpperCase() + status.slice(1)} reviews</h2>
            <ol className="review-list">
              {list.items.map((review) => (
                <ReviewItem
                  key={review.id}
                  project={project}
                  review={review}
                  mayDecide={mayReview}
                  onDecided={(message) => {
                    setDecided(message);
                    list.reload();
                  }}
                />
              ))}
            </ol>
            {!list.loading && !list.error && list.items.length === 0 && <p>No {status} reviews.</p>}
            <ShowMore list={list} what="reviews" />
          </section>
        </>
      )}
    </>
  );
}
