import { api, ok } from '../api/client';
import { useTenantSlug } from '../session';
import { useCursorPages, useLoad } from '../ui/data';
import { ErrorMessage } from '../ui/forms';
import { formatDate, Loading, PageHeader, Pager } from '../ui/layout';

const PAGE_SIZE = 50;

/** The tenant's users, page by page. */
export function UsersPage() {
  const tenant = useTenantSlug();
  const pages = useCursorPages();
  const list = useLoad(
    () =>
      ok(
        api.GET('/v1/tenants/{slug}/users', {
          params: { path: { slug: tenant }, query: { limit: PAGE_SIZE, cursor: pages.cursor } },
        }),
      ),
    [tenant, pages.cursor],
  );
  return (
    <>
      <PageHeader title="Users" />
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <Loading what="users" />}
      {list.data && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">State</th>
              <th scope="col">Created</th>
            </tr>
          </thead>
          <tbody>
            {list.data.items.map((user) => (
              <tr key={user.id}>
                <td>{user.name}</td>
                <td>{user.email}</td>
                <td>{user.role}</td>
                <td>{user.disabled ? 'disabled' : 'active'}</td>
                <td>{formatDate(user.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager
        label="Users"
        page={pages.page}
        hasPrevious={pages.hasPrevious}
        hasNext={Boolean(list.data?.nextCursor)}
        onPrevious={pages.previous}
        onNext={() => pages.next(list.data?.nextCursor)}
      />
    </>
  );
}
