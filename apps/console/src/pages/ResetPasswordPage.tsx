import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { Link } from 'wouter';
import { sessionApi } from '../api/session-api';
import { ErrorMessage, Field, Notice, PrimaryButton } from '../ui/forms';

/** The token of a password link (`/console/reset-password#token=…`): in the fragment, so it never reaches a server log. */
function tokenFromFragment(): string | undefined {
  const params = new URLSearchParams(window.location.hash.replace(/^#/, ''));
  return params.get('token') ?? undefined;
}

/** Choose a password from an emailed or admin-issued link. */
export function ResetPasswordPage() {
  const [token] = useState(tokenFromFragment);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [done, setDone] = useState(false);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!token) return;
    if (password !== repeat) {
      setError(new Error('The two passwords differ.'));
      return;
    }
    setError(undefined);
    sessionApi.resetPassword(token, password).then(() => {
      // The token is spent: take it out of the address bar and history.
      window.history.replaceState(null, '', window.location.pathname);
      setDone(true);
    }, setError);
  };

  return (
    <main className="centered">
      <h1>Choose a password</h1>
      <section className="card">
        {!token ? (
          <ErrorMessage error={new Error('This link has no token. Open the full link you were given.')} />
        ) : done ? (
          <Notice>
            Your password is set. <Link href="/sign-in">Sign in</Link>.
          </Notice>
        ) : (
          <Form onSubmit={submit} className="form">
            <Field
              label="New password"
              type="password"
              value={password}
              onChange={setPassword}
              autoComplete="new-password"
              minLength={12}
              isRequired
              description="At least 12 characters."
            />
            <Field
              label="Repeat the password"
              type="password"
              value={repeat}
              onChange={setRepeat}
              autoComplete="new-password"
              isRequired
            />
            <ErrorMessage error={error} />
            <PrimaryButton type="submit">Set password</PrimaryButton>
          </Form>
        )}
      </section>
    </main>
  );
}
