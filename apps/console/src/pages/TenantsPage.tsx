import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { Link } from 'wouter';
import { api, ok } from '../api/client';
import { type components } from '../api/openapi';
import { useCursorPages, useLoad } from '../ui/data';
import { DangerButton, ErrorMessage, Field, Notice, PlainButton, PrimaryButton } from '../ui/forms';
import { formatDate, Loading, ModalDialog, PageHeader, Pager } from '../ui/layout';
import { type Purge, PurgeReport } from '../ui/purge';
import { SuspendOrResume } from '../ui/suspension';

type Tenant = components['schemas']['TenantDto_Output'];
const PAGE_SIZE = 50;

/** Platform: the tenants, page by page; create one; suspend or resume one; delete one after typing its id (showing what was purged). */
export function TenantsPage() {
  const pages = useCursorPages();
  const list = useLoad(
    () => ok(api.GET('/v1/tenants', { params: { query: { limit: PAGE_SIZE, cursor: pages.cursor } } })),
    [pages.cursor],
  );
  const [report, setReport] = useState<Purge | undefined>(undefined);
  return (
    <>
      <PageHeader title="Tenants" />
      <CreateTenantForm onCreated={list.reload} />
      {report && <PurgeReport purge={report} onDone={() => setReport(undefined)} />}
      <section aria-labelledby="tenants-heading">
        <h2 id="tenants-heading">All tenants</h2>
        <ErrorMessage error={list.error} />
        {list.loading && !list.data && <Loading what="tenants" />}
        {list.data && (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Id</th>
                <th scope="col">Schema version</th>
                <th scope="col">State</th>
                <th scope="col">Created</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.length === 0 && (
                <tr>
                  <td colSpan={6}>No tenants yet.</td>
                </tr>
              )}
              {list.data.items.map((tenant) => (
                <tr key={tenant.id}>
                  <td>
                    <Link href={`/tenants/${tenant.slug}`}>{tenant.name}</Link>
                  </td>
                  <td>
                    <code>{tenant.slug}</code>
                  </td>
                  <td>{tenant.schemaVersion}</td>
                  <td>{tenant.suspendedAt ? `suspended since ${formatDate(tenant.suspendedAt)}` : 'active'}</td>
                  <td>{formatDate(tenant.createdAt)}</td>
                  <td>
                    <div className="row-actions">
                      <SuspendOrResume tenant={tenant} onChanged={list.reload} />
                      <DeleteTenant
                        tenant={tenant}
                        onDeleted={(purge) => {
                          setReport(purge);
                          list.reload();
                        }}
                      />
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Pager
          label="Tenants"
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

function CreateTenantForm({ onCreated }: { onCreated: () => void }) {
  const [slug, setSlug] = useState('');
  const [name, setName] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [created, setCreated] = useState<string | undefined>(undefined);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(undefined);
    ok(api.POST('/v1/tenants', { body: { slug: slug.trim(), name: name.trim() } })).then((tenant) => {
      setCreated(`Tenant ${tenant.slug} created.`);
      setSlug('');
      setName('');
      onCreated();
    }, setError);
  };
  return (
    <section aria-labelledby="create-tenant-heading" className="card">
      <h2 id="create-tenant-heading">Create a tenant</h2>
      <Form onSubmit={submit} className="form form-grid">
        <Field
          label="Id"
          value={slug}
          onChange={setSlug}
          isRequired
          description="Lower-case letters, digits and dashes, 3–40 characters, e.g. acme."
        />
        <Field label="Name" value={name} onChange={setName} isRequired />
        <ErrorMessage error={error} />
        {created && <Notice>{created}</Notice>}
        <div className="form-actions">
          <PrimaryButton type="submit">Create tenant</PrimaryButton>
        </div>
      </Form>
    </section>
  );
}

function DeleteTenant({ tenant, onDeleted }: { tenant: Tenant; onDeleted: (purge: Purge) => void }) {
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  return (
    <ModalDialog title={`Delete tenant ${tenant.slug}?`} trigger={<DangerButton>Delete {tenant.slug}</DangerButton>}>
      {(close) => (
        <>
          <p>
            This deletes the tenant <strong>{tenant.name}</strong> and purges all its data: memories, knowledge, users
            and tokens. It cannot be undone.
          </p>
          <Field label={`Type ${tenant.slug} to confirm`} value={typed} onChange={setTyped} autoFocus />
          <ErrorMessage error={error} />
          <div className="form-actions">
            <DangerButton
              isDisabled={typed !== tenant.slug}
              onPress={() => {
                ok(api.DELETE('/v1/tenants/{slug}', { params: { path: { slug: tenant.slug } } }))
                  .then((purge) => {
                    close();
                    onDeleted(purge);
                  })
                  .catch(setError);
              }}
            >
              Delete tenant
            </DangerButton>
            <PlainButton onPress={close}>Cancel</PlainButton>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
