import { useState } from 'react';
import { api, ok } from '../api/client';
import { type components } from '../api/openapi';
import { useTenantSlug } from '../session';
import { useCursorPages, useLoad } from '../ui/data';
import { ErrorMessage, Notice } from '../ui/forms';
import { formatDate, Loading, PageHeader, Pager } from '../ui/layout';
import { useCan } from '../ui/permissions';
import { CreateUserForm, PasswordLinkReveal, type User, UserActions } from '../ui/users';

const PAGE_SIZE = 50;

/** The tenant's users, page by page; admins add users, change roles, disable them and issue password links. */
export function UsersPage() {
  const tenant = useTenantSlug();
  const can = useCan();
  const manage = can('tenant.users.manage');
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
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [link, setLink] = useState<{ user: User; link: components['schemas']['PasswordLinkDto_Output'] }>();
  const changed = (message: string) => {
    setNotice(message);
    list.reload();
  };
  return (
    <>
      <PageHeader title="Users" />
      {link && <PasswordLinkReveal person={link.user} link={link.link} onDone={() => setLink(undefined)} />}
      {manage && (
        <CreateUserForm
          tenant={tenant}
          onCreated={(user) =>
            changed(`${user.email} added as ${user.role}. Issue a password link so they can sign in.`)
          }
        />
      )}
      {notice && <Notice>{notice}</Notice>}
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
              {manage && (
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              )}
            </tr>
          </thead>
          <tbody>
            {list.data.items.map((user) => (
              <tr key={user.id}>
                <td>{user.name}</td>
                <td id={`user-email-${user.id}`}>{user.email}</td>
                <td>{user.role}</td>
                <td>{user.disabled ? 'disabled' : 'active'}</td>
                <td>{formatDate(user.createdAt)}</td>
                {manage && (
                  <td>
                    <UserActions
                      tenant={tenant}
                      user={user}
                      describedBy={`user-email-${user.id}`}
                      onChanged={changed}
                      onLink={(issued) => setLink({ user, link: issued })}
                    />
                  </td>
                )}
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
