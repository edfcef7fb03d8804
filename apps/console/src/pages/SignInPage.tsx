import { type FormEvent, useState } from 'react';
import { Button, Disclosure, DisclosurePanel, Form, Heading } from 'react-aria-components';
import { useSearchParams } from 'wouter';
import { ApiError } from '../api/errors';
import { oidcStartUrl, sessionApi } from '../api/session-api';
import { pendingReturnTo } from '../return-to';
import { useSession } from '../session';
import { useLoad } from '../ui/data';
import { ErrorMessage, Field, Notice, PrimaryButton } from '../ui/forms';
import { Loading } from '../ui/layout';

/**
 * Why a sign-in through an identity provider was refused: the api sends the browser back here
 * with the code (`/console/sign-in?error=<code>`, docs/sign-in.md).
 */
const OIDC_ERRORS: Readonly<Record<string, string>> = {
  unknown_provider: 'That identity provider is not configured here.',
  provider_unavailable: 'The identity provider could not be reached. Try again in a moment.',
  sign_in_expired: 'The sign-in took too long or was already used. Start again.',
  sign_in_failed: "The identity provider's answer could not be verified. Start again.",
  idp_refused: 'The identity provider did not sign you in.',
  email_missing: 'The identity provider did not share your email address.',
  email_not_verified: 'Your email address is not verified at the identity provider.',
  email_domain_not_allowed: 'Email addresses of your domain may not sign in here.',
  tenant_missing: 'The identity provider did not say which workspace you belong to.',
  unknown_tenant: 'Your workspace does not exist here.',
  no_role: 'None of your groups at the identity provider gives access here. Ask an administrator.',
  user_not_found: 'There is no user with your email address here. Ask an administrator to add you.',
  account_disabled: 'This account is disabled.',
  identity_conflict:
    'Your email address here belongs to another person of that identity provider. Ask an administrator.',
  rate_limited: 'Too many failed sign-ins from your address. Wait a few minutes and try again.',
};

/**
 * Sign in: workspace (tenant slug; empty for a platform operator), email and password, then the
 * TOTP code when the account asks for one; OIDC providers as buttons; the bootstrap token (first
 * start of a platform) behind the "platform operator" disclosure.
 */
export function SignInPage() {
  const providers = useLoad(() => sessionApi.providers(), []);
  const [search] = useSearchParams();
  const refused = search.get('error');
  const { ended } = useSession();
  // The consent page sent the person here (src/return-to.ts): say why, and that they go back.
  const consentWaiting = pendingReturnTo()?.startsWith('/oauth/consent/') === true;
  return (
    <main className="centered sign-in">
      <h1>Sign in to Cairn</h1>
      {ended && <Notice>Your session has ended. Sign in again.</Notice>}
      {consentWaiting && (
        <Notice>An application asks for access to Cairn: sign in with your workspace account to continue.</Notice>
      )}
      {refused && (
        <div role="alert" className="message error">
          {OIDC_ERRORS[refused] ?? 'Signing in through the identity provider failed.'}
        </div>
      )}
      {providers.loading && !providers.data && <Loading what="sign-in options" />}
      <ErrorMessage error={providers.error} />
      {providers.data?.local !== false && <LocalSignIn />}
      {providers.data && providers.data.oidc.length > 0 && (
        <section aria-labelledby="oidc-heading" className="card">
          <h2 id="oidc-heading">Single sign-on</h2>
          <ul className="provider-list">
            {providers.data.oidc.map((provider) => (
              <li key={provider.id}>
                <a className="button" href={oidcStartUrl(provider.id)}>
                  Sign in with {provider.name}
                </a>
              </li>
            ))}
          </ul>
        </section>
      )}
      <BootstrapDisclosure />
    </main>
  );
}

function LocalSignIn() {
  const { signedIn } = useSession();
  const [tenant, setTenant] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [totp, setTotp] = useState('');
  const [needsTotp, setNeedsTotp] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    sessionApi
      .login({
        tenant: tenant.trim() || undefined,
        email: email.trim(),
        password,
        totp: needsTotp ? totp.trim() : undefined,
      })
      .then(signedIn, (failure: unknown) => {
        if (failure instanceof ApiError && failure.code === 'totp_required') {
          setNeedsTotp(true);
          return;
        }
        setError(failure);
      })
      .finally(() => setBusy(false));
  };

  return (
    <section aria-labelledby="local-heading" className="card">
      <h2 id="local-heading">{needsTotp ? 'Two-step verification' : 'Email and password'}</h2>
      <Form onSubmit={submit} className="form">
        {!needsTotp ? (
          <>
            <Field
              label="Workspace"
              name="tenant"
              value={tenant}
              onChange={setTenant}
              autoComplete="organization"
              description="Your team's workspace id, e.g. acme. Leave it empty to sign in as a platform operator."
            />
            <Field
              label="Email"
              name="email"
              type="email"
              value={email}
              onChange={setEmail}
              autoComplete="username"
              isRequired
            />
            <Field
              label="Password"
              name="password"
              type="password"
              value={password}
              onChange={setPassword}
              autoComplete="current-password"
              isRequired
            />
          </>
        ) : (
          <>
            <Notice>Enter the 6-digit code from your authenticator app.</Notice>
            <Field
              label="Authentication code"
              name="totp"
              value={totp}
              onChange={setTotp}
              autoComplete="one-time-code"
              inputMode="numeric"
              isRequired
              autoFocus
            />
          </>
        )}
        <ErrorMessage error={error} />
        <div className="form-actions">
          <PrimaryButton type="submit" isDisabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </PrimaryButton>
          {needsTotp && (
            <Button
              className="button"
              onPress={() => {
                setNeedsTotp(false);
                setTotp('');
                setError(undefined);
              }}
            >
              Back
            </Button>
          )}
        </div>
      </Form>
    </section>
  );
}

function BootstrapDisclosure() {
  const { signedIn } = useSession();
  const [token, setToken] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [busy, setBusy] = useState(false);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    sessionApi
      .bootstrap(token.trim())
      .then(signedIn, setError)
      .finally(() => setBusy(false));
  };
  return (
    <Disclosure className="card disclosure">
      <Heading level={2}>
        <Button slot="trigger" className="disclosure-trigger">
          Platform operator: first sign-in with the bootstrap token
        </Button>
      </Heading>
      <DisclosurePanel>
        <Form onSubmit={submit} className="form">
          <Field
            label="Bootstrap token"
            name="bootstrap-token"
            type="password"
            value={token}
            onChange={setToken}
            autoComplete="off"
            isRequired
            description="CAIRN_ADMIN_TOKEN of this installation; you then create your own platform account."
          />
          <ErrorMessage error={error} />
          <PrimaryButton type="submit" isDisabled={busy}>
            Continue
          </PrimaryButton>
        </Form>
      </DisclosurePanel>
    </Disclosure>
  );
}
