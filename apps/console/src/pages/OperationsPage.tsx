import { useState } from 'react';
import { api, ok } from '../api/client';
import { useSession } from '../session';
import { useLoad } from '../ui/data';
import { ServiceHealth } from '../ui/health';
import { FailedJobs, QueueCounts } from '../ui/jobs';
import { PageHeader } from '../ui/layout';
import { useCan } from '../ui/permissions';

/** Tenants named in the platform's job list (enough for an operator's screen; ids past it stay ids). */
const TENANT_NAMES_LIMIT = 500;

/**
 * The background jobs — a platform operator sees every queue and every tenant's failed jobs, a
 * tenant admin the tenant's own — then service health (search mode, embedding model and
 * backfill, dependencies). Failures come first: they are what an operator comes here for.
 */
export function OperationsPage() {
  const { session } = useSession();
  const can = useCan();
  const [version, setVersion] = useState(0);
  const platform = session?.kind === 'platform';
  const tenants = useLoad(
    () =>
      platform && can('platform.tenants.manage')
        ? ok(api.GET('/v1/tenants', { params: { query: { limit: TENANT_NAMES_LIMIT } } }))
        : Promise.resolve(undefined),
    [platform],
  );
  const names = new Map(tenants.data?.items.map((tenant) => [tenant.id, tenant.slug]));
  const slug = session?.tenant?.slug;
  return (
    <>
      <PageHeader title="Operations" />
      {platform && can('platform.queues.manage') && <QueueCounts version={version} />}
      {platform && can('platform.queues.manage') && (
        <FailedJobs
          scope={{ kind: 'platform' }}
          onChanged={() => setVersion((n) => n + 1)}
          tenantName={(id) => names.get(id) ?? id}
        />
      )}
      {!platform && slug && can('tenant.jobs.manage') && (
        <FailedJobs scope={{ kind: 'tenant', slug }} onChanged={() => setVersion((n) => n + 1)} />
      )}
      <ServiceHealth />
    </>
  );
}
