import { Link, useParams } from 'wouter';
import { api, ok } from '../api/client';
import { useLoad } from '../ui/data';
import { ErrorMessage } from '../ui/forms';
import { formatDate, Loading, PageHeader } from '../ui/layout';
import { type Memory } from '../ui/memory';
import { PromoteForm } from '../ui/promote';

/** One memory: content, provenance, embedding status, versions, relations and shares. */
export function MemoryPage() {
  const { project = '', id = '' } = useParams<{ project: string; id: string }>();
  const path = { project, id };
  const memory = useLoad(
    () => ok(api.GET('/v1/projects/{project}/memories/{id}', { params: { path } })),
    [project, id],
  );
  const history = useLoad(
    () => ok(api.GET('/v1/projects/{project}/memories/{id}/history', { params: { path } })),
    [project, id],
  );
  const related = useLoad(
    () => ok(api.GET('/v1/projects/{project}/memories/{id}/related', { params: { path } })),
    [project, id],
  );
  const shares = useLoad(
    () => ok(api.GET('/v1/projects/{project}/shares', { params: { path: { project }, query: { memoryId: id } } })),
    [project, id],
  );
  return (
    <>
      <PageHeader title="Memory">
        <Link href={`/projects/${project}`}>Back to {project}</Link>
      </PageHeader>
      <ErrorMessage error={memory.error} />
      {memory.loading && !memory.data && <Loading what="the memory" />}
      {memory.data && <MemoryDetails memory={memory.data} />}
      {memory.data && <PromoteForm project={project} memory={memory.data} />}

      <section aria-labelledby="versions-heading" className="card">
        <h2 id="versions-heading">Versions</h2>
        <ErrorMessage error={history.error} />
        {history.data && (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Version</th>
                <th scope="col">Changed by</th>
                <th scope="col">Reason</th>
                <th scope="col">When</th>
                <th scope="col">Content then</th>
              </tr>
            </thead>
            <tbody>
              {history.data.versions.map((version) => (
                <tr key={version.version}>
                  <td>{version.version}</td>
                  <td>{version.changedBy.agentId ?? version.changedBy.userId ?? '—'}</td>
                  <td>{version.reason ?? '—'}</td>
                  <td>{formatDate(version.createdAt)}</td>
                  <td className="pre">{snapshotContent(version.snapshot)}</td>
                </tr>
              ))}
              {history.data.versions.length === 0 && (
                <tr>
                  <td colSpan={5}>Never changed since it was stored.</td>
                </tr>
              )}
            </tbody>
          </table>
        )}
      </section>

      <section aria-labelledby="relations-heading" className="card">
        <h2 id="relations-heading">Relations</h2>
        <ErrorMessage error={related.error} />
        {related.data && related.data.items.length === 0 && <p>No relations.</p>}
        {related.data && related.data.items.length > 0 && (
          <ul className="plain-list">
            {related.data.items.map((item) => (
              <li key={item.relation.id}>
                {item.direction === 'outgoing' ? 'this ' : ''}
                <strong>{item.relation.type.replace('_', ' ')}</strong>
                {item.direction === 'incoming' ? ' this' : ''}:{' '}
                <Link href={`/projects/${project}/memories/${item.memory.id}`}>
                  {item.memory.content.slice(0, 140)}
                </Link>
                {item.relation.note && <span> ({item.relation.note})</span>}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="shares-heading" className="card">
        <h2 id="shares-heading">Shares</h2>
        <ErrorMessage error={shares.error} />
        {shares.data && shares.data.items.length === 0 && <p>Not shared with anyone.</p>}
        {shares.data && shares.data.items.length > 0 && (
          <ul className="plain-list">
            {shares.data.items.map((share) => (
              <li key={share.id}>
                {share.permission} for {share.grantee.agentId ?? share.grantee.userId ?? '—'}
                {'tag' in share ? ` (rule on tag ${String(share.tag)})` : ''}, since {formatDate(share.createdAt)}
              </li>
            ))}
          </ul>
        )}
      </section>
    </>
  );
}

function snapshotContent(snapshot: unknown): string {
  const content = (snapshot as { content?: unknown } | null)?.content;
  return typeof content === 'string' ? content : JSON.stringify(snapshot);
}

function MemoryDetails({ memory }: { memory: Memory }) {
  return (
    <article className="card" aria-labelledby="content-heading">
      <h2 id="content-heading">Content</h2>
      <p className="pre memory-content">{memory.content}</p>
      <dl className="details">
        <dt>Category</dt>
        <dd>{memory.category}</dd>
        <dt>Scope</dt>
        <dd>{memory.scope}</dd>
        <dt>Tags</dt>
        <dd>{memory.tags.join(', ') || '—'}</dd>
        <dt>Keywords</dt>
        <dd>{memory.keywords.join(', ') || '—'}</dd>
        <dt>Importance / confidence</dt>
        <dd>
          {memory.importance} / {memory.confidence}
        </dd>
        <dt>Embedding</dt>
        <dd>
          {memory.embedded ? 'embedded (semantic search finds it)' : 'not embedded yet (keyword search finds it)'}
        </dd>
        <dt>Author</dt>
        <dd>
          {memory.author.agentId ?? '—'} {memory.author.userId ? `(user ${memory.author.userId})` : ''}
        </dd>
        <dt>Source</dt>
        <dd>
          {memory.source
            ? `${memory.source.path}${memory.source.line ? `:${memory.source.line}` : ''}${
                memory.source.contentHash ? ` (hash ${memory.source.contentHash.slice(0, 12)})` : ''
              }`
            : '—'}
        </dd>
        <dt>State</dt>
        <dd>
          {[
            memory.stale ? 'stale' : 'fresh',
            memory.pinned && 'pinned',
            memory.archived && 'archived',
            memory.sensitive && 'sensitive',
            memory.supersededBy && `superseded by ${memory.supersededBy}`,
          ]
            .filter(Boolean)
            .join(', ')}
        </dd>
        <dt>Verified</dt>
        <dd>{formatDate(memory.verifiedAt)}</dd>
        <dt>Version</dt>
        <dd>{memory.version}</dd>
        <dt>Occurred / stored / updated</dt>
        <dd>
          {formatDate(memory.occurredAt)} / {formatDate(memory.createdAt)} / {formatDate(memory.updatedAt)}
        </dd>
        <dt>Accesses</dt>
        <dd>
          {memory.accessCount} (last {formatDate(memory.lastAccessedAt)})
        </dd>
      </dl>
    </article>
  );
}
