import { type FormEvent, useState } from 'react';
import { Form } from 'react-aria-components';
import { useLocation } from 'wouter';
import { sessionApi } from '../api/session-api';
import { useSession } from '../session';
import { ErrorMessage, Field, Notice, PlainButton, PrimaryButton } from '../ui/forms';

/** After the bootstrap token: create the first real platform account; the bootstrap session then ends. */
export function CreatePlatformAccountPage() {
  const { signOut } = useSession();
  const [, navigate] = useLocation();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [created, setCreated] = useState(false);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password !== repeat) {
      setError(new Error('The two passwords differ.'));
      return;
    }
    setError(undefined);
    sessionApi
      .createPlatformAccount({ email: email.trim(), name: name.trim(), password })
      .then(() => setCreated(true), setError);
  };

  const toSignIn = () => {
    void signOut().then(() => navigate('/sign-in'));
  };

  return (
    <main className="centered">
      <h1>Create your platform account</h1>
      {created ? (
        <section className="card">
          <Notice>Your account is ready. The bootstrap session has ended: sign in with your new account.</Notice>
          <PrimaryButton onPress={toSignIn}>Go to sign-in</PrimaryButton>
        </section>
      ) : (
        <section className="card">
          <p>
            You signed in with the bootstrap token. Create a personal platform operator account; after that, sign in
            with it.
          </p>
          <Form onSubmit={submit} className="form">
            <Field label="Email" type="email" value={email} onChange={setEmail} autoComplete="username" isRequired />
            <Field label="Name" value={name} onChange={setName} autoComplete="name" isRequired />
            <Field
              label="Password"
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
            <div className="form-actions">
              <PrimaryButton type="submit">Create account</PrimaryButton>
              <PlainButton onPress={toSignIn}>Cancel and sign out</PlainButton>
            </div>
          </Form>
        </section>
      )}
    </main>
  );
}
