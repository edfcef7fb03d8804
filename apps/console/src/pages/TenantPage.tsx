import { Link, useParams } from 'wouter';
import { api, ok } from '../api/client';
import { ChainCheck } from '../ui/audit';
import { useLoad } from '../ui/data';
import { ErrorMessage } from '../ui/forms';
import { formatDate, Loading, PageHeader } from '../ui/layout';
import { useCan } from '../ui/permissions';
import { DataKeySection, TenantSettingsForm } from '../ui/settings';

/** Platform: one tenant — its facts, settings, data key (rotation) and audit chain check. */
export function TenantPage() {
  const { slug = '' } = useParams<{ slug: string }>();
  const can = useCan();
  const tenant = useLoad(() => ok(api.GET('/v1/tenants/{slug}', { params: { path: { slug } } })), [slug]);
  return (
    <>
      <PageHeader title={`Tenant ${slug}`}>
        <Link href="/tenants">All tenants</Link>
      </PageHeader>
      <ErrorMessage error={tenant.error} />
      {tenant.loading && !tenant.data && <Loading what="the tenant" />}
      {tenant.data && (
        <>
          <div className="card">
            <dl className="details">
              <dt>Name</dt>
              <dd>{tenant.data.name}</dd>
              <dt>Id</dt>
              <dd>
                <code>{tenant.data.id}</code>
              </dd>
              <dt>Schema</dt>
              <dd>
                <code>{tenant.data.schema}</code> at version {tenant.data.schemaVersion}
              </dd>
              <dt>Created</dt>
              <dd>{formatDate(tenant.data.createdAt)}</dd>
              <dt>State</dt>
              <dd>{tenant.data.suspendedAt ? `suspended since ${formatDate(tenant.data.suspendedAt)}` : 'active'}</dd>
            </dl>
          </div>
          {can('tenant.settings.manage') && <TenantSettingsForm tenant={slug} />}
          {can('tenant.keys.rotate') && <DataKeySection tenant={slug} />}
          {can('tenant.audit.read') && <ChainCheck tenant={slug} />}
        </>
      )}
    </>
  );
}
