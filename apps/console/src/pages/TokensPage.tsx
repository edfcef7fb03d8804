import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { api, ok } from '../api/client';
import { type components } from '../api/openapi';
import { useTenantSlug } from '../session';
import { TenantConnectedApplications } from '../ui/connected-apps';
import { useCursorPages, useLoad } from '../ui/data';
import { DangerButton, ErrorMessage, Field, Notice, PlainButton, PrimaryButton, SelectField } from '../ui/forms';
import { formatDate, Loading, ModalDialog, PageHeader, Pager } from '../ui/layout';

type Role = components['schemas']['IssueTokenDto']['role'];
type Issued = components['schemas']['IssuedTokenDto_Output'];
type TokenRow = components['schemas']['TokenPageDto_Output']['items'][number];

const ROLES: readonly { value: Role; label: string }[] = [
  { value: 'agent', label: 'agent' },
  { value: 'member', label: 'member' },
  { value: 'reader', label: 'reader' },
  { value: 'orchestrator', label: 'orchestrator' },
  { value: 'admin', label: 'admin' },
];
const PAGE_SIZE = 25;

/**
 * The tenant's tokens: issue (shown once, with a copy button), list page by page, revoke after
 * confirmation; then the applications people connected with OAuth, whose grants are tokens too.
 */
export function TokensPage() {
  const tenant = useTenantSlug();
  const pages = useCursorPages();
  const list = useLoad(
    () =>
      ok(
        api.GET('/v1/tenants/{slug}/tokens', {
          params: { path: { slug: tenant }, query: { limit: PAGE_SIZE, cursor: pages.cursor } },
        }),
      ),
    [tenant, pages.cursor],
  );
  const [issued, setIssued] = useState<Issued | undefined>(undefined);
  return (
    <>
      <PageHeader title="Tokens" />
      {issued && <OneTimeReveal issued={issued} onDone={() => setIssued(undefined)} />}
      <IssueTokenForm
        tenant={tenant}
        onIssued={(token) => {
          setIssued(token);
          pages.reset();
          list.reload();
        }}
      />
      <section aria-labelledby="tokens-heading">
        <h2 id="tokens-heading">Issued tokens</h2>
        <ErrorMessage error={list.error} />
        {list.loading && !list.data && <Loading what="tokens" />}
        {list.data && (
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Label</th>
                <th scope="col">Token</th>
                <th scope="col">Role</th>
                <th scope="col">Projects</th>
                <th scope="col">Agent</th>
                <th scope="col">Status</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.length === 0 && (
                <tr>
                  <td colSpan={9}>No tokens yet.</td>
                </tr>
              )}
              {list.data.items.map((token) => (
                <TokenRowView key={token.id} tenant={tenant} token={token} onRevoked={list.reload} />
              ))}
            </tbody>
          </table>
        )}
        <Pager
          label="Tokens"
          page={pages.page}
          hasPrevious={pages.hasPrevious}
          hasNext={Boolean(list.data?.nextCursor)}
          onPrevious={pages.previous}
          onNext={() => pages.next(list.data?.nextCursor)}
        />
      </section>
      <TenantConnectedApplications tenant={tenant} />
    </>
  );
}

function projectsText(projects: string | readonly string[]): string {
  return typeof projects === 'string' ? projects : projects.join(', ');
}

function TokenRowView({ tenant, token, onRevoked }: { tenant: string; token: TokenRow; onRevoked: () => void }) {
  const [error, setError] = useState<unknown>(undefined);
  const name = token.label ?? token.hint;
  return (
    <tr>
      <td>{token.label ?? '—'}</td>
      <td>
        <code>{token.hint}</code>
      </td>
      <td>{token.role}</td>
      <td>{projectsText(token.projects)}</td>
      <td>{token.agentId ?? '—'}</td>
      <td>{token.status}</td>
      <td>{formatDate(token.expiresAt)}</td>
      <td>{formatDate(token.lastUsedAt)}</td>
      <td>
        {token.status === 'active' && (
          <ModalDialog title={`Revoke ${name}?`} trigger={<DangerButton>Revoke {name}</DangerButton>}>
            {(close) => (
              <>
                <p>Every agent or client using this token loses access at once. This cannot be undone.</p>
                <ErrorMessage error={error} />
                <div className="form-actions">
                  <DangerButton
                    onPress={() => {
                      ok(
                        api.DELETE('/v1/tenants/{slug}/tokens/{id}', {
                          params: { path: { slug: tenant, id: token.id } },
                        }),
                      )
                        .then(() => {
                          close();
                          onRevoked();
                        })
                        .catch(setError);
                    }}
                  >
                    Revoke token
                  </DangerButton>
                  <PlainButton onPress={close} autoFocus>
                    Cancel
                  </PlainButton>
                </div>
              </>
            )}
          </ModalDialog>
        )}
      </td>
    </tr>
  );
}

function IssueTokenForm({ tenant, onIssued }: { tenant: string; onIssued: (token: Issued) => void }) {
  const [label, setLabel] = useState('');
  const [role, setRole] = useState<Role>('agent');
  const [projects, setProjects] = useState('*');
  const [agentId, setAgentId] = useState('');
  const [days, setDays] = useState('30');
  const [error, setError] = useState<unknown>(undefined);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(undefined);
    const list = projects
      .split(',')
      .map((project) => project.trim())
      .filter(Boolean);
    ok(
      api.POST('/v1/tenants/{slug}/tokens', {
        params: { path: { slug: tenant } },
        body: {
          role,
          projects: list.length === 1 && list[0] === '*' ? '*' : list,
          label: label.trim() || undefined,
          agentId: agentId.trim() || undefined,
          ttlSeconds: Number(days) > 0 ? Math.round(Number(days) * 86_400) : undefined,
        },
      }),
    ).then((token) => {
      setLabel('');
      onIssued(token);
    }, setError);
  };
  return (
    <section aria-labelledby="issue-heading" className="card">
      <h2 id="issue-heading">Issue a token</h2>
      <Form onSubmit={submit} className="form form-grid">
        <Field label="Label" value={label} onChange={setLabel} description="What it is for, e.g. alice's laptop." />
        <SelectField id="token-role" label="Role" value={role} options={ROLES} onChange={setRole} />
        <Field
          label="Projects"
          value={projects}
          onChange={setProjects}
          isRequired
          description="* for every project, or project ids separated by commas."
        />
        <Field label="Agent id" value={agentId} onChange={setAgentId} description="Optional, e.g. claude-code:alice." />
        <Field label="Expires in (days)" value={days} onChange={setDays} inputMode="numeric" />
        <ErrorMessage error={error} />
        <div className="form-actions">
          <PrimaryButton type="submit">Issue token</PrimaryButton>
        </div>
      </Form>
    </section>
  );
}

function OneTimeReveal({ issued, onDone }: { issued: Issued; onDone: () => void }) {
  const [copied, setCopied] = useState<string | undefined>(undefined);
  return (
    <section aria-labelledby="reveal-heading" className="card reveal">
      <h2 id="reveal-heading">New token {issued.label ? `“${issued.label}”` : ''}</h2>
      <Notice>Copy it now: it is shown only once and cannot be read again.</Notice>
      <div className="reveal-row">
        <label htmlFor="issued-token">Token</label>
        <input
          id="issued-token"
          className="token-value"
          readOnly
          value={issued.token}
          onFocus={(e) => e.target.select()}
        />
        <PlainButton
          onPress={() => {
            navigator.clipboard.writeText(issued.token).then(
              () => setCopied('Copied to the clipboard.'),
              () => setCopied('Copying failed: select the token and copy it by hand.'),
            );
          }}
        >
          Copy
        </PlainButton>
      </div>
      <p role="status">{copied}</p>
      <PlainButton onPress={onDone}>I have stored it</PlainButton>
    </section>
  );
}
