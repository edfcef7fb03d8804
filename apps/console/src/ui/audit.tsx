import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { api, ok } from '../api/client';
import { type components } from '../api/openapi';
import { ErrorMessage, Field, Notice, PlainButton, PrimaryButton, SelectField } from './forms';
import { formatDate } from './layout';

type PlatformEntry = components['schemas']['AuditPageDto_Output']['items'][number];
/** An entry of either log (the tenant's also carries its hashes; its details may be null). */
export type AuditEntry = Omit<PlatformEntry, 'details'> & { readonly details?: Record<string, unknown> | null };
export interface AuditPage {
  readonly items: readonly AuditEntry[];
  readonly nextCursor: string | null;
}
type Outcome = PlatformEntry['outcome'];
type Verification = components['schemas']['ChainVerificationDto_Output'];

/** The filters the audit routes take (as typed; times as the browser's local date-time fields). */
export interface AuditFilters {
  readonly actor: string;
  readonly action: string;
  readonly outcome: Outcome | 'any';
  readonly from: string;
  readonly to: string;
}
export const NO_FILTERS: AuditFilters = { actor: '', action: '', outcome: 'any', from: '', to: '' };

/** The query of `filters` for GET …/audit (empty fields left out; local times as instants). */
export function auditQuery(filters: AuditFilters) {
  const instant = (local: string) => (local ? new Date(local).toISOString() : undefined);
  return {
    actor: filters.actor.trim() || undefined,
    action: filters.action.trim() || undefined,
    outcome: filters.outcome === 'any' ? undefined : filters.outcome,
    from: instant(filters.from),
    to: instant(filters.to),
  };
}

/** A labelled native date-time field (keyboard and screen-reader behaviour of the platform). */
function DateTimeField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (v: string) => void;
}) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} type="datetime-local" value={value} onChange={(event) => onChange(event.target.value)} />
    </div>
  );
}

export function AuditFilterForm({ onApply }: { onApply: (filters: AuditFilters) => void }) {
  const [draft, setDraft] = useState<AuditFilters>(NO_FILTERS);
  const set =
    <K extends keyof AuditFilters>(key: K) =>
    (value: AuditFilters[K]) =>
      setDraft((f) => ({ ...f, [key]: value }));
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <Form onSubmit={submit} className="card form form-grid filters" aria-label="Filter the audit log">
      <Field
        label="Actor"
        value={draft.actor}
        onChange={set('actor')}
        description="user:<id> matches all its tokens."
      />
      <Field
        label="Action"
        value={draft.action}
        onChange={set('action')}
        description="A trailing dot for all under it (mcp.)."
      />
      <SelectField
        id="audit-outcome"
        label="Outcome"
        value={draft.outcome}
        onChange={set('outcome')}
        options={[
          { value: 'any', label: 'any' },
          { value: 'success', label: 'success' },
          { value: 'denied', label: 'denied' },
          { value: 'failure', label: 'failure' },
        ]}
      />
      <DateTimeField id="audit-from" label="From" value={draft.from} onChange={set('from')} />
      <DateTimeField id="audit-to" label="Until" value={draft.to} onChange={set('to')} />
      <div className="form-actions">
        <PrimaryButton type="submit">Apply filters</PrimaryButton>
        <PlainButton
          onPress={() => {
            setDraft(NO_FILTERS);
            onApply(NO_FILTERS);
          }}
        >
          Clear
        </PlainButton>
      </div>
    </Form>
  );
}

const detailsText = (details: AuditEntry['details']) =>
  details && Object.keys(details).length > 0 ? JSON.stringify(details) : '';

export function AuditTable({ items }: { items: readonly AuditEntry[] }) {
  return (
    <div className="table-scroll">
      <table className="table">
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Actor</th>
            <th scope="col">Action</th>
            <th scope="col">Target</th>
            <th scope="col">Outcome</th>
            <th scope="col">Details</th>
          </tr>
        </thead>
        <tbody>
          {items.length === 0 && (
            <tr>
              <td colSpan={6}>No entries match.</td>
            </tr>
          )}
          {items.map((entry) => (
            <tr key={entry.id}>
              <td>{formatDate(entry.at)}</td>
              <td className="cell-id">{entry.actor}</td>
              <td>{entry.action}</td>
              <td className="cell-id">{entry.target ?? '—'}</td>
              <td>
                <span className={entry.outcome === 'success' ? 'badge' : 'badge warn'}>{entry.outcome}</span>
                {entry.status !== null && ` ${entry.status}`}
              </td>
              <td className="cell-id">{detailsText(entry.details) || '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Recomputes a tenant's audit chain on request and says plainly whether it holds. */
export function ChainCheck({ tenant }: { tenant: string }) {
  const [result, setResult] = useState<Verification | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const verify = () => {
    setBusy(true);
    setError(undefined);
    ok(api.GET('/v1/tenants/{slug}/audit/verify', { params: { path: { slug: tenant } } }))
      .then(setResult, setError)
      .finally(() => setBusy(false));
  };
  return (
    <section aria-labelledby="chain-heading" className="card">
      <div className="section-header">
        <h2 id="chain-heading">Chain verification</h2>
        <PrimaryButton onPress={verify} isDisabled={busy}>
          {busy ? 'Verifying…' : 'Verify the audit chain'}
        </PrimaryButton>
      </div>
      <p className="field-description">
        Recomputes every entry's hash from the one before it, and names the first entry that breaks the chain.
      </p>
      <ErrorMessage error={error} />
      {result?.valid && (
        <Notice>
          Verified: the chain of {result.entries} {result.entries === 1 ? 'entry' : 'entries'} is intact.
          {result.prunedThrough &&
            ` It starts after ${result.prunedThrough.entriesPruned} entries removed by retention.`}
          {result.head && (
            <>
              {' '}
              Head hash <code className="cell-id">{result.head}</code> (keep it elsewhere to detect a removed tail).
            </>
          )}
        </Notice>
      )}
      {result && !result.valid && (
        <div role="alert" className="message error">
          Broken: entry {result.firstInvalidId} does not chain ({result.reason}). {result.entries} entries before it
          verify.
        </div>
      )}
    </section>
  );
}
