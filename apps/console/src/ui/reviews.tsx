import { useState } from 'react';
import { Label, Radio, RadioGroup } from 'react-aria-components';
import { Link } from 'wouter';
import { api, ok } from '../api/client';
import { type components } from '../api/openapi';
import { actorName, TextAreaField } from './fields';
import { ErrorMessage, PlainButton, PrimaryButton } from './forms';
import { formatDate } from './layout';

export type QueuedReview = components['schemas']['ReviewPageDto_Output']['items'][number];
type Resolution = NonNullable<components['schemas']['DecideDto']['resolution']>;
type ReviewedMemory = NonNullable<QueuedReview['memory']>;

const RESOLUTIONS: readonly { value: Resolution; label: string }[] = [
  { value: 'keep_both', label: 'Keep both (nothing changes)' },
  { value: 'supersede', label: 'The newer one supersedes the older' },
  { value: 'reject_new', label: 'Reject the newer one (archived, restorable)' },
];

/** One review of the queue: what is proposed or contradicted, and (pending, for a reviewer) the decision. */
export function ReviewItem({
  project,
  review,
  mayDecide,
  onDecided,
}: {
  readonly project: string;
  readonly review: QueuedReview;
  readonly mayDecide: boolean;
  readonly onDecided: (message: string) => void;
}) {
  const heading = `review-${review.id}`;
  const title =
    review.kind === 'promotion'
      ? `Promotion from ${review.fromScope} to ${review.toScope}`
      : 'Contradiction between two authors';
  return (
    <li>
      <article className="card review" aria-labelledby={heading}>
        <h3 id={heading}>{title}</h3>
        <p className="memory-meta">
          <span className={`badge ${review.status === 'pending' ? 'warn' : ''}`}>{review.status}</span>
          <span>
            proposed by {actorName(review.proposedBy)} on {formatDate(review.createdAt)}
          </span>
        </p>
        {review.note && <p>Note: {review.note}</p>}
        <ReviewedExcerpt
          project={project}
          label={review.kind === 'promotion' ? 'Memory' : 'Newer memory'}
          memory={review.memory}
        />
        {review.kind === 'contradiction' && (
          <ReviewedExcerpt project={project} label="Older memory" memory={review.otherMemory} />
        )}
        {review.status !== 'pending' && (
          <p>
            {review.status} by {actorName(review.decidedBy)} on {formatDate(review.decidedAt)}
            {review.resolution && ` (${review.resolution.replace('_', ' ')})`}: {review.decisionReason}
          </p>
        )}
        {review.status === 'pending' && mayDecide && (
          <DecisionForm project={project} review={review} onDecided={onDecided} />
        )}
      </article>
    </li>
  );
}

function ReviewedExcerpt({
  project,
  label,
  memory,
}: {
  readonly project: string;
  readonly label: string;
  readonly memory: ReviewedMemory | null;
}) {
  if (!memory) return <p>{label}: no longer visible to you.</p>;
  return (
    <div className="excerpt">
      <p className="excerpt-label">
        {label} ({memory.category}, by {actorName(memory.author)})
        {memory.agentWritten && <span className="badge warn">agent-written, unverified</span>}
      </p>
      <blockquote className="pre">{memory.excerpt}</blockquote>
      <Link href={`/projects/${project}/memories/${memory.id}`}>Open this memory</Link>
    </div>
  );
}

/** Approve or reject a promotion, or resolve a contradiction, always with a reason (the author reads it). */
function DecisionForm({
  project,
  review,
  onDecided,
}: {
  readonly project: string;
  readonly review: QueuedReview;
  readonly onDecided: (message: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [resolution, setResolution] = useState<Resolution>('keep_both');
  const [error, setError] = useState<unknown>(undefined);
  const [missing, setMissing] = useState(false);
  const [busy, setBusy] = useState(false);
  const decide = (body: components['schemas']['DecideDto'], said: string) => {
    if (!reason.trim()) {
      setMissing(true);
      return;
    }
    setMissing(false);
    setError(undefined);
    setBusy(true);
    ok(api.POST('/v1/projects/{project}/reviews/{id}', { params: { path: { project, id: review.id } }, body }))
      .then(() => onDecided(said), setError)
      .finally(() => setBusy(false));
  };
  return (
    <div className="form decision">
      <TextAreaField
        label="Reason"
        rows={2}
        value={reason}
        onChange={setReason}
        isRequired
        isInvalid={missing}
        errorMessage="Give a reason: the author reads it in their next briefing."
        description="The author reads it in their next briefing."
      />
      {review.kind === 'contradiction' && (
        <RadioGroup className="radio-group" value={resolution} onChange={(value) => setResolution(value as Resolution)}>
          <Label>Resolution</Label>
          {RESOLUTIONS.map((option) => (
            <Radio key={option.value} value={option.value}>
              {option.label}
            </Radio>
          ))}
        </RadioGroup>
      )}
      <ErrorMessage error={error} />
      <div className="form-actions">
        {review.kind === 'promotion' ? (
          <>
            <PrimaryButton
              isDisabled={busy}
              onPress={() =>
                decide({ decision: 'approve', reason }, `Promotion approved: the memory is now ${review.toScope}.`)
              }
            >
              Approve promotion
            </PrimaryButton>
            <PlainButton
              isDisabled={busy}
              onPress={() => decide({ decision: 'reject', reason }, 'Promotion rejected: the scope stays.')}
            >
              Reject promotion
            </PlainButton>
          </>
        ) : (
          <PrimaryButton
            isDisabled={busy}
            onPress={() => decide({ resolution, reason }, `Contradiction resolved (${resolution.replace('_', ' ')}).`)}
          >
            Resolve contradiction
          </PrimaryButton>
        )}
      </div>
    </div>
  );
}
