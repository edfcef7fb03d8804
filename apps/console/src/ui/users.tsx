import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Form } from 'react-aria-components';
import { api, ok } from '../api/client';
import { type components } from '../api/openapi';
import { ErrorMessage, Field, Notice, PlainButton, PrimaryButton, SelectField } from './forms';
import { formatDate, ModalDialog } from './layout';
import { DisableOrEnable } from './disable';
import { CopyField } from './reveal';

export type User = components['schemas']['UserDto_Output'];
type Role = User['role'];
type PasswordLink = components['schemas']['PasswordLinkDto_Output'];

export const USER_ROLES: readonly { value: Role; label: string }[] = [
  { value: 'member', label: 'member' },
  { value: 'reader', label: 'reader' },
  { value: 'agent', label: 'agent' },
  { value: 'orchestrator', label: 'orchestrator' },
  { value: 'admin', label: 'admin' },
];

export function CreateUserForm({ tenant, onCreated }: { tenant: string; onCreated: (user: User) => void }) {
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [error, setError] = useState<unknown>(undefined);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setError(undefined);
    ok(
      api.POST('/v1/tenants/{slug}/users', {
        params: { path: { slug: tenant } },
        body: { email: email.trim(), name: name.trim(), role },
      }),
    ).then((user) => {
      setEmail('');
      setName('');
      onCreated(user);
    }, setError);
  };
  return (
    <section aria-labelledby="create-user-heading" className="card">
      <h2 id="create-user-heading">Add a user</h2>
      <Form onSubmit={submit} className="form form-grid">
        <Field label="Email" type="email" value={email} onChange={setEmail} isRequired />
        <Field label="Name" value={name} onChange={setName} isRequired />
        <SelectField id="new-user-role" label="Role" value={role} options={USER_ROLES} onChange={setRole} />
        <ErrorMessage error={error} />
        <div className="form-actions">
          <PrimaryButton type="submit">Add user</PrimaryButton>
        </div>
      </Form>
    </section>
  );
}

/** The one-time password link of a person (a user, an operator), absolute so it can be handed over as it is. */
export function PasswordLinkReveal({
  person,
  link,
  onDone,
}: {
  person: { readonly email: string; readonly name: string };
  link: PasswordLink;
  onDone: () => void;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The link appears above the table: take focus there, so keyboard and screen-reader users find it.
  useEffect(() => heading.current?.focus(), [link]);
  return (
    <section aria-labelledby="link-heading" className="card reveal">
      <h2 id="link-heading" ref={heading} tabIndex={-1}>
        Password link for {person.email}
      </h2>
      <Notice>
        Hand it to {person.name} yourself: it is shown only once, works once, and expires {formatDate(link.expiresAt)}.
      </Notice>
      <CopyField id="password-link" label="Link" value={new URL(link.url, window.location.origin).href} />
      <PlainButton onPress={onDone}>Done</PlainButton>
    </section>
  );
}

/**
 * Row actions on a user: change the role, disable or enable, issue a password link. The buttons
 * are described by the row's email cell (`describedBy`), so their names stay short and the cell's
 * own name does not repeat the email.
 */
export function UserActions({
  tenant,
  user,
  describedBy,
  onChanged,
  onLink,
}: {
  tenant: string;
  user: User;
  describedBy: string;
  onChanged: (message: string) => void;
  onLink: (link: PasswordLink) => void;
}) {
  const [error, setError] = useState<unknown>(undefined);
  const update = (body: components['schemas']['UpdateUserDto']) =>
    ok(api.PATCH('/v1/tenants/{slug}/users/{id}', { params: { path: { slug: tenant, id: user.id } }, body }));
  return (
    <div className="row-actions">
      <ChangeRole user={user} describedBy={describedBy} update={update} onChanged={onChanged} />
      <DisableOrEnable
        email={user.email}
        disabled={user.disabled}
        describedBy={describedBy}
        consequence="They are signed out and every token they hold stops working at once, until enabled again."
        confirmLabel="Disable user"
        disable={() => void update({ disabled: true }).then(() => onChanged(`${user.email} disabled.`), setError)}
        enable={() => void update({ disabled: false }).then(() => onChanged(`${user.email} enabled.`), setError)}
      />
      <PlainButton
        aria-describedby={describedBy}
        onPress={() => {
          setError(undefined);
          ok(
            api.POST('/v1/tenants/{slug}/users/{id}/password-link', {
              params: { path: { slug: tenant, id: user.id } },
            }),
          ).then(onLink, setError);
        }}
      >
        Password link
      </PlainButton>
      <ErrorMessage error={error} />
    </div>
  );
}

function ChangeRole({
  user,
  describedBy,
  update,
  onChanged,
}: {
  user: User;
  describedBy: string;
  update: (body: { role: Role }) => Promise<User>;
  onChanged: (message: string) => void;
}) {
  const [role, setRole] = useState<Role>(user.role);
  const [error, setError] = useState<unknown>(undefined);
  return (
    <ModalDialog
      title={`Role of ${user.email}`}
      trigger={<PlainButton aria-describedby={describedBy}>Change role</PlainButton>}
    >
      {(close) => (
        <>
          <p>The new role applies at once to their sessions; tokens above it stop working.</p>
          <SelectField id={`role-${user.id}`} label="Role" value={role} options={USER_ROLES} onChange={setRole} />
          <ErrorMessage error={error} />
          <div className="form-actions">
            <PrimaryButton
              isDisabled={role === user.role}
              onPress={() => {
                update({ role }).then(() => {
                  close();
                  onChanged(`${user.email} is now ${role}.`);
                }, setError);
              }}
            >
              Save role
            </PrimaryButton>
            <PlainButton onPress={close}>Cancel</PlainButton>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
