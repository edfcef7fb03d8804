import { useState } from 'react';
import { api, ok } from '../api/client';
import { type components } from '../api/openapi';
import { DisableOrEnable } from './disable';
import { ErrorMessage, PlainButton } from './forms';

export type Operator = components['schemas']['PlatformAccountDto_Output'];
type PasswordLink = components['schemas']['PasswordLinkDto_Output'];

/**
 * Row actions on another operator's account: disable (after confirmation) or enable, and issue a
 * password link. Not offered on one's own row (the API refuses it: `cannot_disable_self`); the API's
 * refusal of the last enabled operator (`last_operator`) is shown as it words it.
 */
export function OperatorActions({
  operator,
  isSelf,
  describedBy,
  onChanged,
  onLink,
}: {
  operator: Operator;
  isSelf: boolean;
  describedBy: string;
  onChanged: (message: string) => void;
  onLink: (link: PasswordLink) => void;
}) {
  const [error, setError] = useState<unknown>(undefined);
  const path = { params: { path: { id: operator.id } } };
  const run = (action: Promise<unknown>, message: string) => {
    setError(undefined);
    action.then(() => onChanged(message), setError);
  };
  return (
    <div className="row-actions">
      {!isSelf && (
        <DisableOrEnable
          email={operator.email}
          disabled={operator.disabled}
          describedBy={describedBy}
          consequence="Every browser session of this operator ends at once, and they cannot sign in until enabled again."
          confirmLabel="Disable operator"
          disable={() => run(ok(api.POST('/v1/platform/accounts/{id}/disable', path)), `${operator.email} disabled.`)}
          enable={() => run(ok(api.POST('/v1/platform/accounts/{id}/enable', path)), `${operator.email} enabled.`)}
        />
      )}
      {!operator.disabled && (
        <PlainButton
          aria-describedby={describedBy}
          onPress={() => {
            setError(undefined);
            ok(api.POST('/v1/platform/accounts/{id}/password-link', path)).then(onLink, setError);
          }}
        >
          Password link
        </PlainButton>
      )}
      <ErrorMessage error={error} />
    </div>
  );
}
