import { api, ok } from '../api/client';
import { apiErrorOf, unreachable } from '../api/errors';
import { useLoad } from './data';
import { ErrorMessage, PlainButton } from './forms';
import { formatDate, Loading } from './layout';

/** What `/readyz` answers (left out of the OpenAPI document, like every probe). */
interface ReadinessCheck {
  readonly ok: boolean;
  readonly detail?: string;
  readonly info?: Record<string, unknown>;
}
interface Readiness {
  readonly status: string;
  readonly degraded: readonly string[];
  readonly checks: Readonly<Record<string, ReadinessCheck>>;
}

/** `/readyz`, whose 503 still carries the report: "not ready" is what an operator comes to see. */
async function loadReadiness(): Promise<Readiness> {
  let response: Response;
  try {
    response = await fetch('/readyz', { headers: { accept: 'application/json' }, credentials: 'same-origin' });
  } catch (error) {
    throw unreachable(error);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if ((response.ok || response.status === 503) && body && typeof body === 'object' && 'checks' in body) {
    return body as Readiness;
  }
  throw apiErrorOf(response, body);
}

const infoText = (info: Record<string, unknown> | undefined) =>
  Object.entries(info ?? {})
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');

/** Search mode and embedding model (GET /v1/status) and each dependency's health (/readyz). */
export function ServiceHealth() {
  const status = useLoad(() => ok(api.GET('/v1/status')), []);
  const ready = useLoad(loadReadiness, []);
  const search = status.data?.search;
  return (
    <section aria-labelledby="health-heading" className="card">
      <div className="section-header">
        <h2 id="health-heading">Service health</h2>
        <PlainButton
          onPress={() => {
            status.reload();
            ready.reload();
          }}
        >
          Check again
        </PlainButton>
      </div>
      <div className="health-grid">
        <div>
          <ErrorMessage error={status.error} />
          {status.loading && !status.data && <Loading what="the service status" />}
          {status.data && (
            <dl className="details">
              <dt>Server</dt>
              <dd>
                {status.data.server.name} {status.data.server.version}
              </dd>
              <dt>MCP endpoint</dt>
              <dd>{status.data.mcp.url ?? `not configured (gateway port ${status.data.mcp.port})`}</dd>
              {search ? (
                <>
                  <dt>Search mode</dt>
                  <dd>
                    <span className={search.mode === 'hybrid' ? 'badge ok' : 'badge warn'}>{search.mode}</span>{' '}
                    {search.reason}
                  </dd>
                  <dt>Embedding model</dt>
                  <dd>
                    {search.embedding.provider} · {search.embedding.model} · {search.embedding.dimensions} dimensions
                    {search.embedding.builtIn ? ' (built-in, lexical)' : ''}
                    {search.providerReachable === false && (
                      <>
                        {' '}
                        <span className="badge warn">provider unreachable</span>
                      </>
                    )}
                  </dd>
                  <dt>Embedding backfill</dt>
                  <dd>
                    {search.backfill
                      ? search.backfill.status === 'running'
                        ? `running: ${search.backfill.embedded} embedded since ${formatDate(search.backfill.startedAt)}`
                        : `done: ${search.backfill.embedded} embedded, finished ${formatDate(search.backfill.completedAt)}`
                      : 'none: every item carries the current model'}
                  </dd>
                </>
              ) : (
                <>
                  <dt>Search</dt>
                  <dd>Search mode and model are per tenant: a tenant admin sees them on this page.</dd>
                </>
              )}
            </dl>
          )}
        </div>
        <div>
          <h3>Dependencies of this api</h3>
          <ErrorMessage error={ready.error} />
          {ready.loading && !ready.data && <Loading what="readiness" />}
          {ready.data && (
            <>
              <p>
                <span className={ready.data.status === 'ready' ? 'badge ok' : 'badge warn'}>{ready.data.status}</span>
                {ready.data.degraded.length > 0 && ` degraded: ${ready.data.degraded.join(', ')}`}
              </p>
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Dependency</th>
                    <th scope="col">State</th>
                    <th scope="col">Detail</th>
                  </tr>
                </thead>
                <tbody>
                  {Object.entries(ready.data.checks).map(([name, check]) => (
                    <tr key={name}>
                      <td>{name}</td>
                      <td>{check.ok ? 'up' : ready.data?.degraded.includes(name) ? 'down (degraded)' : 'down'}</td>
                      <td>{[check.detail, infoText(check.info)].filter(Boolean).join(' · ') || '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </>
          )}
        </div>
      </div>
    </section>
  );
}
