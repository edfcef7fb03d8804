import { useState } from 'react';
import { api, ok } from '../api/client';
import { useSession } from '../session';
import {
  AuditFilterForm,
  type AuditFilters,
  type AuditPage as Page,
  auditQuery,
  AuditTable,
  ChainCheck,
  NO_FILTERS,
} from '../ui/audit';
import { useCursorPages, useLoad } from '../ui/data';
import { ErrorMessage } from '../ui/forms';
import { Loading, PageHeader, Pager } from '../ui/layout';
import { useCan } from '../ui/permissions';

const PAGE_SIZE = 50;

/**
 * The audit log, newest first, filtered and paged: the tenant's hash-chained log (with chain
 * verification) for a tenant admin, the platform log for an operator.
 */
export function AuditPage() {
  const { session } = useSession();
  const can = useCan();
  const tenant = session?.kind === 'tenant' ? session.tenant?.slug : undefined;
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const pages = useCursorPages();
  const list = useLoad((): Promise<Page> => {
    const query = { ...auditQuery(filters), limit: PAGE_SIZE, before: pages.cursor };
    return tenant
      ? ok(api.GET('/v1/tenants/{slug}/audit', { params: { path: { slug: tenant }, query } }))
      : ok(api.GET('/v1/audit', { params: { query } }));
  }, [tenant, filters, pages.cursor]);
  return (
    <>
      <PageHeader title={tenant ? 'Audit log' : 'Platform audit log'} />
      {tenant && can('tenant.audit.read') && <ChainCheck tenant={tenant} />}
      <AuditFilterForm
        onApply={(next) => {
          pages.reset();
          setFilters(next);
        }}
      />
      <section aria-labelledby="entries-heading" aria-busy={list.loading}>
        <h2 id="entries-heading">Entries</h2>
        <ErrorMessage error={list.error} />
        {list.loading && !list.data && <Loading what="the audit log" />}
        {list.data && <AuditTable items={list.data.items} />}
        <Pager
          label="Audit entries"
          page={pages.page}
          hasPrevious={pages.hasPrevious}
          hasNext={Boolean(list.data?.nextCursor)}
          onPrevious={pages.previous}
          onNext={() => pages.next(list.data?.nextCursor)}
        />
      </section>
    </>
  );
}
