import { type FormEvent, useState } from 'react';
import { Form, Label, Radio, RadioGroup } from 'react-aria-components';
import { api, ok } from '../api/client';
import { useLoad } from './data';
import { ErrorMessage, Field, Notice, PlainButton, PrimaryButton } from './forms';
import { Loading } from './layout';

type Mode = 'hybrid' | 'keyword' | 'semantic';
const STEP = 10;
/** KB_SEARCH_MAX_LIMIT: the API returns at most this many chunks. */
const MAX = 50;

/** Searching the project's knowledge base: each result is a chunk, shown whole, with its document. */
export function KbSearch({ project }: { readonly project: string }) {
  const [draft, setDraft] = useState('');
  const [mode, setMode] = useState<Mode>('hybrid');
  const [applied, setApplied] = useState<{ query: string; mode: Mode } | undefined>(undefined);
  const [limit, setLimit] = useState(STEP);
  const found = useLoad(
    async () =>
      applied
        ? ok(
            api.POST('/v1/projects/{project}/kb/search', {
              params: { path: { project } },
              body: { query: applied.query, mode: applied.mode, limit },
            }),
          )
        : undefined,
    [project, applied, limit],
  );
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!draft.trim()) return;
    setLimit(STEP);
    setApplied({ query: draft.trim(), mode });
  };
  const results = found.data?.results ?? [];
  return (
    <section aria-labelledby="kb-search-heading" aria-busy={found.loading}>
      <h2 id="kb-search-heading">Search the knowledge base</h2>
      <Form onSubmit={submit} className="card form" role="search" aria-label="Search the knowledge base">
        <div className="search-row">
          <Field label="Search chunks" type="search" value={draft} onChange={setDraft} isRequired />
          <PrimaryButton type="submit">Search</PrimaryButton>
        </div>
        <RadioGroup
          className="radio-group"
          value={mode}
          onChange={(value) => setMode(value as Mode)}
          orientation="horizontal"
        >
          <Label>Mode</Label>
          <Radio value="hybrid">Hybrid</Radio>
          <Radio value="keyword">Keyword</Radio>
          <Radio value="semantic">Semantic</Radio>
        </RadioGroup>
      </Form>
      <ErrorMessage error={found.error} />
      {found.loading && applied && !found.data && <Loading what="results" />}
      {found.data && applied && (
        <>
          <h3>Chunks matching “{applied.query}”</h3>
          {found.data.report.mode !== found.data.report.requestedMode && (
            <Notice>
              Searched by {found.data.report.mode} instead of {found.data.report.requestedMode}:{' '}
              {found.data.report.notes.join(' ')}
            </Notice>
          )}
          <ol className="review-list">
            {results.map((hit) => (
              <li key={hit.chunkId} className="card chunk-hit">
                <p className="excerpt-label">
                  {hit.title ?? hit.source}, chunk {hit.ordinal + 1}
                  {hit.title && <span className="field-description"> ({hit.source})</span>}
                  {hit.untrusted && <span className="badge warn">external: untrusted</span>}
                  <span className="field-description"> score {hit.score.toFixed(3)}</span>
                </p>
                <p className="pre">{hit.text}</p>
              </li>
            ))}
          </ol>
          {results.length === 0 && <p>No chunk matches.</p>}
          {results.length >= limit && limit < MAX && (
            <PlainButton onPress={() => setLimit((n) => Math.min(MAX, n + STEP))}>Show more results</PlainButton>
          )}
        </>
      )}
    </section>
  );
}
