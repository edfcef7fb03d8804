import { type FormEvent, useState } from 'react';
import { Form, Label, Radio, RadioGroup, Switch } from 'react-aria-components';
import { useParams } from 'wouter';
import { api, ok } from '../api/client';
import { type components } from '../api/openapi';
import { useCursorPages, useLoad } from '../ui/data';
import { ErrorMessage, Field, Notice, PlainButton, PrimaryButton, SelectField } from '../ui/forms';
import { ExplainTable } from '../ui/explain';
import { Loading, Pager } from '../ui/layout';
import { MemoryItem } from '../ui/memory';
import { ProjectHeader } from '../ui/project-nav';

type Mode = 'hybrid' | 'keyword' | 'semantic';
type Scope = 'project' | 'tenant' | 'all';
type Category = components['schemas']['MemoryDto_Output']['category'];
type Tristate = 'any' | 'true' | 'false';

interface Filters {
  readonly query: string;
  readonly mode: Mode;
  readonly scope: Scope;
  readonly category: Category | 'any';
  readonly tags: string;
  readonly author: string;
  readonly stale: Tristate;
  readonly archived: boolean;
}

const EMPTY: Filters = {
  query: '',
  mode: 'hybrid',
  scope: 'all',
  category: 'any',
  tags: '',
  author: '',
  stale: 'any',
  archived: false,
};
const CATEGORIES: readonly Category[] = [
  'fact',
  'preference',
  'decision',
  'pattern',
  'bug',
  'todo',
  'person',
  'architecture',
  'other',
];
const PAGE_SIZE = 25;
const SEARCH_STEP = 10;
const SEARCH_MAX = 50;

const tagList = (tags: string) =>
  tags
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);

/** A project's memories: list them page by page, or search them (keyword, semantic or hybrid) with the same filters. */
export function MemoryBrowserPage() {
  const { project = '' } = useParams<{ project: string }>();
  const [draft, setDraft] = useState<Filters>(EMPTY);
  const [applied, setApplied] = useState<Filters>(EMPTY);
  const [limit, setLimit] = useState(SEARCH_STEP);
  // Applies at once (no need to search again): the API explains when asked, at no extra query.
  const [explain, setExplain] = useState(false);
  const pages = useCursorPages();
  const set =
    <K extends keyof Filters>(key: K) =>
    (value: Filters[K]) =>
      setDraft((f) => ({ ...f, [key]: value }));
  const searching = applied.query.trim() !== '';

  const results = useLoad(async () => {
    const f = applied;
    if (searching) {
      const found = await ok(
        api.POST('/v1/projects/{project}/memories/search', {
          params: { path: { project } },
          body: {
            query: f.query.trim(),
            mode: f.mode,
            limit,
            explain: explain || undefined,
            filters: {
              scope: f.scope,
              categories: f.category === 'any' ? undefined : [f.category],
              tags: tagList(f.tags).length ? tagList(f.tags) : undefined,
              authorAgentId: f.author.trim() || undefined,
              stale: f.stale === 'any' ? undefined : f.stale === 'true',
              includeArchived: f.archived || undefined,
            },
          },
        }),
      );
      return { kind: 'search' as const, found };
    }
    const page = await ok(
      api.GET('/v1/projects/{project}/memories', {
        params: {
          path: { project },
          query: {
            scope: f.scope,
            category: f.category === 'any' ? undefined : f.category,
            tags: f.tags.trim() || undefined,
            authorAgentId: f.author.trim() || undefined,
            stale: f.stale === 'any' ? undefined : f.stale,
            includeArchived: f.archived ? 'true' : undefined,
            limit: PAGE_SIZE,
            cursor: pages.cursor,
          },
        },
      }),
    );
    return { kind: 'list' as const, page };
  }, [project, applied, limit, pages.cursor, searching && explain]);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    pages.reset();
    setLimit(SEARCH_STEP);
    setApplied(draft);
  };

  return (
    <>
      <ProjectHeader project={project} title={`Memories of ${project}`} />
      <Form onSubmit={submit} className="card form search-form" role="search" aria-label="Search memories">
        <div className="search-row">
          <Field
            label="Search"
            type="search"
            value={draft.query}
            onChange={set('query')}
            description="Leave empty to list the memories, newest first."
          />
          <PrimaryButton type="submit">Search</PrimaryButton>
        </div>
        <RadioGroup
          className="radio-group"
          value={draft.mode}
          onChange={(v) => set('mode')(v as Mode)}
          orientation="horizontal"
        >
          <Label>Mode</Label>
          <Radio value="hybrid">Hybrid</Radio>
          <Radio value="keyword">Keyword</Radio>
          <Radio value="semantic">Semantic</Radio>
        </RadioGroup>
        <Switch className="switch" isSelected={explain} onChange={setExplain}>
          <span className="switch-indicator" aria-hidden="true" />
          Explain ranking
          <span className="field-description">(search results: each signal's rank, score and contribution)</span>
        </Switch>
        <div className="form-grid">
          <SelectField
            id="filter-scope"
            label="Scope"
            value={draft.scope}
            onChange={set('scope')}
            options={[
              { value: 'all', label: 'this project and tenant-wide' },
              { value: 'project', label: 'this project only' },
              { value: 'tenant', label: 'tenant-wide only' },
            ]}
          />
          <SelectField
            id="filter-category"
            label="Category"
            value={draft.category}
            onChange={set('category')}
            options={[{ value: 'any', label: 'any' }, ...CATEGORIES.map((c) => ({ value: c, label: c }))]}
          />
          <Field label="Tags" value={draft.tags} onChange={set('tags')} description="Separated by commas." />
          <Field label="Author agent" value={draft.author} onChange={set('author')} />
          <SelectField
            id="filter-stale"
            label="Stale"
            value={draft.stale}
            onChange={set('stale')}
            options={[
              { value: 'any', label: 'any' },
              { value: 'true', label: 'stale only' },
              { value: 'false', label: 'fresh only' },
            ]}
          />
          <div className="field checkbox">
            <input
              id="filter-archived"
              type="checkbox"
              checked={draft.archived}
              onChange={(e) => set('archived')(e.target.checked)}
            />
            <label htmlFor="filter-archived">Include archived</label>
          </div>
        </div>
      </Form>
      <section aria-labelledby="results-heading" aria-busy={results.loading}>
        <h2 id="results-heading">{searching ? `Results for “${applied.query}”` : 'Memories'}</h2>
        <ErrorMessage error={results.error} />
        {results.loading && !results.data && <Loading what="memories" />}
        {results.data?.kind === 'search' && (
          <>
            {results.data.found.report.mode !== results.data.found.report.requestedMode && (
              <Notice>
                Searched by {results.data.found.report.mode} instead of {results.data.found.report.requestedMode}:{' '}
                {results.data.found.report.notes.join(' ')}
              </Notice>
            )}
            <ol className="memory-list">
              {results.data.found.results.map((r, index) => (
                <MemoryItem key={r.memory.id} project={project} memory={r.memory} score={r.score}>
                  {r.explain && <ExplainTable explain={r.explain} label={`Why result ${index + 1} ranked here`} />}
                </MemoryItem>
              ))}
            </ol>
            {results.data.found.results.length === 0 && <p>No memory matches.</p>}
            {results.data.found.results.length >= limit && limit < SEARCH_MAX && (
              <PlainButton onPress={() => setLimit((n) => Math.min(SEARCH_MAX, n + SEARCH_STEP))}>
                Show more results
              </PlainButton>
            )}
          </>
        )}
        {results.data?.kind === 'list' && (
          <>
            <ol className="memory-list">
              {results.data.page.items.map((memory) => (
                <MemoryItem key={memory.id} project={project} memory={memory} />
              ))}
            </ol>
            {results.data.page.items.length === 0 && <p>No memories here yet.</p>}
            <Pager
              label="Memories"
              page={pages.page}
              hasPrevious={pages.hasPrevious}
              hasNext={Boolean(results.data.page.nextCursor)}
              onPrevious={pages.previous}
              onNext={() => results.data?.kind === 'list' && pages.next(results.data.page.nextCursor)}
            />
          </>
        )}
      </section>
    </>
  );
}
