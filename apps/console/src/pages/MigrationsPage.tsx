import { api, ok, request } from '../api/client';
import { useLoad } from '../ui/data';
import { ErrorMessage } from '../ui/forms';
import { Loading, PageHeader } from '../ui/layout';

interface Readiness {
  readonly status: string;
  readonly degraded?: readonly string[];
  readonly checks?: Record<string, unknown>;
}

const MAX_TENANTS = 500;

/**
 * Platform: readiness (database, Redis, control-schema version) and each tenant's schema version.
 * `npm run migrate` (the Helm chart's migration Job) brings every tenant to the newest version.
 */
export function MigrationsPage() {
  const readiness = useLoad(() => request<Readiness>('GET', '/readyz'), []);
  const tenants = useLoad(() => ok(api.GET('/v1/tenants', { params: { query: { limit: MAX_TENANTS } } })), []);
  const newest = Math.max(0, ...(tenants.data?.items.map((tenant) => tenant.schemaVersion) ?? []));
  return (
    <>
      <PageHeader title="Migration status" />
      <section aria-labelledby="readiness-heading" className="card">
        <h2 id="readiness-heading">Readiness of this api</h2>
        <ErrorMessage error={readiness.error} />
        {readiness.loading && !readiness.data && <Loading what="readiness" />}
        {readiness.data && (
          <dl className="details">
            <dt>Status</dt>
            <dd>{readiness.data.status}</dd>
            {readiness.data.degraded && readiness.data.degraded.length > 0 && (
              <>
                <dt>Degraded</dt>
                <dd>{readiness.data.degraded.join(', ')}</dd>
              </>
            )}
            {Object.entries(readiness.data.checks ?? {}).map(([name, value]) => (
              <div key={name} className="details-row">
                <dt>{name}</dt>
                <dd>{JSON.stringify(value)}</dd>
              </div>
            ))}
          </dl>
        )}
      </section>
      <section aria-labelledby="tenant-versions-heading">
        <h2 id="tenant-versions-heading">Tenant schemas</h2>
        <p>
          Tenants below the newest version are migrated by <code>npm run migrate</code> (the Helm chart runs it as a Job
          on every upgrade).
        </p>
        <ErrorMessage error={tenants.error} />
        {tenants.data && (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Tenant</th>
                <th scope="col">Schema</th>
                <th scope="col">Version</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {tenants.data.items.map((tenant) => (
                <tr key={tenant.id}>
                  <td>{tenant.slug}</td>
                  <td>
                    <code>{tenant.schema}</code>
                  </td>
                  <td>{tenant.schemaVersion}</td>
                  <td>{tenant.schemaVersion < newest ? 'behind: run npm run migrate' : 'current'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
