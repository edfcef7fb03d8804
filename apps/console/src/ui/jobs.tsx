import { useState } from 'react';
import { api, ok } from '../api/client';
import { type components } from '../api/openapi';
import { useCursorPages, useLoad } from './data';
import { DangerButton, ErrorMessage, Notice, PlainButton, SelectField } from './forms';
import { formatDate, Loading, Pager } from './layout';
import { ConfirmDialog } from './confirm-dialog';

type FailedJob = components['schemas']['FailedJobsDto_Output']['items'][number];
type Queue = FailedJob['queue'];

const QUEUES: readonly Queue[] = ['embeddings', 'summaries', 'knowledge', 'extraction', 'maintenance'];
const STATES = ['waiting', 'active', 'delayed', 'prioritized', 'paused', 'failed', 'completed'] as const;
const PAGE_SIZE = 20;

/** Platform: jobs per state per queue (GET /v1/admin/queues). `version` reloads it after a change. */
export function QueueCounts({ version }: { version: number }) {
  const overview = useLoad(() => ok(api.GET('/v1/admin/queues')), [version]);
  return (
    <section aria-labelledby="queues-heading">
      <h2 id="queues-heading">Queues</h2>
      <ErrorMessage error={overview.error} />
      {overview.loading && !overview.data && <Loading what="the queues" />}
      {overview.data && (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Queue</th>
                {STATES.map((state) => (
                  <th scope="col" key={state} className="number">
                    {state}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {overview.data.queues.map((queue) => (
                <tr key={queue.queue}>
                  <th scope="row">{queue.queue}</th>
                  {STATES.map((state) => (
                    <td key={state} className="number">
                      {queue.counts[state] ?? 0}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** Where the failed jobs come from: every tenant's (platform), or one tenant's own. */
export type JobScope = { readonly kind: 'platform' } | { readonly kind: 'tenant'; readonly slug: string };

/**
 * Failed jobs with their error, page by page, optionally of one queue; retry one, remove one
 * (after confirmation: its error goes with it), or retry them all. `tenantName` names a tenant id.
 */
export function FailedJobs({
  scope,
  onChanged,
  tenantName,
}: {
  scope: JobScope;
  onChanged: () => void;
  tenantName?: (id: string) => string;
}) {
  const [queue, setQueue] = useState<Queue | 'all'>('all');
  const [outcome, setOutcome] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const pages = useCursorPages();
  const only = queue === 'all' ? undefined : queue;
  const list = useLoad(
    () =>
      scope.kind === 'platform'
        ? ok(
            api.GET('/v1/admin/jobs/failed', {
              params: { query: { queue: only, limit: PAGE_SIZE, cursor: pages.cursor } },
            }),
          )
        : ok(
            api.GET('/v1/tenants/{slug}/jobs/failed', {
              params: { path: { slug: scope.slug }, query: { queue: only, limit: PAGE_SIZE, cursor: pages.cursor } },
            }),
          ),
    [scope.kind, scope.kind === 'tenant' ? scope.slug : '', only, pages.cursor],
  );
  const changed = (message: string) => {
    setError(undefined);
    setOutcome(message);
    pages.reset();
    list.reload();
    onChanged();
  };
  const retryAll = () =>
    (scope.kind === 'platform'
      ? ok(api.POST('/v1/admin/jobs/failed/retry', { body: { queue: only } }))
      : ok(
          api.POST('/v1/tenants/{slug}/jobs/failed/retry', {
            params: { path: { slug: scope.slug } },
            body: { queue: only },
          }),
        )
    ).then((answer) => changed(`Retried ${answer.retried} failed ${answer.retried === 1 ? 'job' : 'jobs'}.`), setError);
  const items = list.data?.items ?? [];
  return (
    <section aria-labelledby="failed-heading" aria-busy={list.loading}>
      <div className="section-header">
        <h2 id="failed-heading">Failed jobs</h2>
        <SelectField
          id="failed-queue"
          label="Queue"
          value={queue}
          onChange={(value) => {
            setQueue(value);
            pages.reset();
          }}
          options={[{ value: 'all', label: 'every queue' }, ...QUEUES.map((q) => ({ value: q, label: q }))]}
        />
        <PlainButton isDisabled={items.length === 0} onPress={() => void retryAll()}>
          Retry all failed jobs
        </PlainButton>
      </div>
      {outcome && <Notice>{outcome}</Notice>}
      <ErrorMessage error={error ?? list.error} />
      {list.loading && !list.data && <Loading what="failed jobs" />}
      {list.data && (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Job</th>
                <th scope="col">Queue</th>
                {scope.kind === 'platform' && <th scope="col">Tenant</th>}
                <th scope="col">Error</th>
                <th scope="col" className="number">
                  Attempts
                </th>
                <th scope="col">Failed at</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {items.length === 0 && (
                <tr>
                  <td colSpan={scope.kind === 'platform' ? 7 : 6}>No failed jobs.</td>
                </tr>
              )}
              {items.map((job) => (
                <FailedJobRow
                  key={`${job.queue}/${job.id}`}
                  job={job}
                  scope={scope}
                  tenantName={tenantName}
                  onDone={changed}
                  onError={setError}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager
        label="Failed jobs"
        page={pages.page}
        hasPrevious={pages.hasPrevious}
        hasNext={Boolean(list.data?.nextCursor)}
        onPrevious={pages.previous}
        onNext={() => pages.next(list.data?.nextCursor)}
      />
    </section>
  );
}

function FailedJobRow({
  job,
  scope,
  tenantName,
  onDone,
  onError,
}: {
  job: FailedJob;
  scope: JobScope;
  tenantName?: (id: string) => string;
  onDone: (message: string) => void;
  onError: (error: unknown) => void;
}) {
  const path = { queue: job.queue, id: job.id };
  const retry = () =>
    (scope.kind === 'platform'
      ? ok(api.POST('/v1/admin/queues/{queue}/jobs/{id}/retry', { params: { path } }))
      : ok(
          api.POST('/v1/tenants/{slug}/queues/{queue}/jobs/{id}/retry', {
            params: { path: { ...path, slug: scope.slug } },
          }),
        )
    ).then(() => onDone(`Job ${job.id} queued again.`), onError);
  const remove = () =>
    scope.kind === 'platform'
      ? ok(api.DELETE('/v1/admin/queues/{queue}/jobs/{id}', { params: { path } }))
      : ok(
          api.DELETE('/v1/tenants/{slug}/queues/{queue}/jobs/{id}', {
            params: { path: { ...path, slug: scope.slug } },
          }),
        );
  return (
    <tr>
      <td>
        {job.name}
        <div className="cell-id">
          <code>{job.id}</code>
        </div>
      </td>
      <td>{job.queue}</td>
      {scope.kind === 'platform' && <td>{job.tenantId ? (tenantName?.(job.tenantId) ?? job.tenantId) : '—'}</td>}
      <td className="job-error">{job.failedReason || '—'}</td>
      <td className="number">{job.attemptsMade}</td>
      <td>{formatDate(job.failedAt)}</td>
      <td>
        <div className="row-actions">
          <PlainButton aria-label={`Retry job ${job.id}`} onPress={() => void retry()}>
            Retry
          </PlainButton>
          <RemoveJob job={job} remove={remove} onRemoved={() => onDone(`Job ${job.id} removed.`)} />
        </div>
      </td>
    </tr>
  );
}

function RemoveJob({
  job,
  remove,
  onRemoved,
}: {
  job: FailedJob;
  remove: () => Promise<unknown>;
  onRemoved: () => void;
}) {
  return (
    <ConfirmDialog
      title={`Remove job ${job.id}?`}
      trigger={<DangerButton aria-label={`Remove job ${job.id}`}>Remove</DangerButton>}
      confirmLabel="Remove job"
      onConfirm={remove}
      onDone={onRemoved}
    >
      <p>The job and its error are deleted for good; its work is not done. Retry it instead if the cause is fixed.</p>
    </ConfirmDialog>
  );
}
