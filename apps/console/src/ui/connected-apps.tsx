import { useState } from 'react';
import { api, ok } from '../api/client';
import { type Grant, oauthApi } from '../api/oauth-api';
import { useCan } from './permissions';
import { type Loaded, useLoad } from './data';
import { DangerButton, ErrorMessage, Notice } from './forms';
import { formatDate, Loading } from './layout';
import { ConfirmDialog } from './confirm-dialog';

type GrantList = { readonly items: readonly Grant[] };

/** The applications the signed-in person authorized through Cairn's OAuth server (Your account). */
export function OwnConnectedApplications() {
  const list = useLoad(() => oauthApi.ownGrants(), []);
  return (
    <ConnectedApplications
      intro="Applications you allowed to use Cairn as you (MCP clients that connect with OAuth). Revoking one stops it at its next request."
      list={list}
      revoke={(grant) => oauthApi.revokeOwn(grant.id)}
    />
  );
}

/** Every person's grants in the tenant, for its admins (Tokens: a grant acts through a token). */
export function TenantConnectedApplications({ tenant }: { readonly tenant: string }) {
  const can = useCan();
  const list = useLoad(() => oauthApi.tenantGrants(tenant), [tenant]);
  // Grants name their person by id; the users list (when the session may read it) gives the email.
  const readsUsers = can('tenant.users.manage');
  const people = useLoad(
    () => (readsUsers ? emailsOf(tenant) : Promise.resolve(new Map<string, string>())),
    [tenant, readsUsers],
  );
  return (
    <ConnectedApplications
      intro="Applications the people of this workspace authorized with OAuth, each acting as its person with the role and projects they chose."
      list={list}
      personOf={(grant) => people.data?.get(grant.userId) ?? `user ${grant.userId.slice(0, 8)}`}
      revoke={(grant) => oauthApi.revokeInTenant(tenant, grant.id)}
    />
  );
}

/** Users' emails by id, a few pages at most: a name is a convenience, not worth loading thousands. */
async function emailsOf(tenant: string): Promise<Map<string, string>> {
  const emails = new Map<string, string>();
  let cursor: string | undefined;
  for (let page = 0; page < 4; page++) {
    const users = await ok(
      api.GET('/v1/tenants/{slug}/users', { params: { path: { slug: tenant }, query: { limit: 500, cursor } } }),
    );
    for (const user of users.items) emails.set(user.id, user.email);
    if (!users.nextCursor) break;
    cursor = users.nextCursor;
  }
  return emails;
}

function ConnectedApplications({
  intro,
  list,
  personOf,
  revoke,
}: {
  readonly intro: string;
  readonly list: Loaded<GrantList>;
  readonly personOf?: (grant: Grant) => string;
  readonly revoke: (grant: Grant) => Promise<unknown>;
}) {
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const columns = personOf ? 8 : 7;
  return (
    <section aria-labelledby="connected-apps-heading">
      <h2 id="connected-apps-heading">Connected applications</h2>
      <p className="field-description">{intro}</p>
      {notice && <Notice>{notice}</Notice>}
      <ErrorMessage error={list.error} />
      {list.loading && !list.data && <Loading what="connected applications" />}
      {list.data && (
        <div className="table-scroll">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Application (its own name)</th>
                {personOf && <th scope="col">Person</th>}
                <th scope="col">Role</th>
                <th scope="col">Projects</th>
                <th scope="col">Authorized</th>
                <th scope="col">Status</th>
                <th scope="col">Ends</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.length === 0 && (
                <tr>
                  <td colSpan={columns}>No application connected.</td>
                </tr>
              )}
              {list.data.items.map((grant) => (
                <GrantRow
                  key={grant.id}
                  grant={grant}
                  person={personOf?.(grant)}
                  revoke={() =>
                    revoke(grant).then(() => {
                      setNotice(`${nameOf(grant)} no longer has access.`);
                      list.reload();
                    })
                  }
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function GrantRow({
  grant,
  person,
  revoke,
}: {
  readonly grant: Grant;
  readonly person: string | undefined;
  readonly revoke: () => Promise<unknown>;
}) {
  const name = nameOf(grant);
  const status = statusOf(grant);
  return (
    <tr>
      <td>
        {name}
        <br />
        <code className="field-description">{grant.clientId}</code>
      </td>
      {person !== undefined && <td>{person}</td>}
      <td>{grant.role}</td>
      <td>{grant.projects === '*' ? 'all projects' : grant.projects.join(', ')}</td>
      <td>{formatDate(grant.createdAt)}</td>
      <td>{status === 'revoked' ? `revoked ${formatDate(grant.revokedAt)}` : status}</td>
      <td>{formatDate(grant.expiresAt)}</td>
      <td>
        {status === 'active' && (
          <ConfirmDialog
            title={`Revoke ${name}?`}
            trigger={
              <DangerButton aria-label={`Revoke ${name}, authorized ${formatDate(grant.createdAt)}`}>
                Revoke
              </DangerButton>
            }
            confirmLabel="Revoke access"
            onConfirm={revoke}
          >
            <p>
              {name} loses access at its next request, and its refresh token stops working. To use it again, connect it
              anew from the application. This cannot be undone.
            </p>
          </ConfirmDialog>
        )}
      </td>
    </tr>
  );
}

function nameOf(grant: Grant): string {
  return grant.clientName ?? grant.clientId;
}

function statusOf(grant: Grant): 'active' | 'revoked' | 'expired' {
  if (grant.revokedAt) return 'revoked';
  return new Date(grant.expiresAt).getTime() <= Date.now() ? 'expired' : 'active';
}
