import { useState } from 'react';
import { api, ok } from '../api/client';
import { type components } from '../api/openapi';
import { DangerButton, ErrorMessage, PlainButton } from './forms';
import { ModalDialog } from './layout';

type Tenant = components['schemas']['TenantDto_Output'];

/**
 * Suspend a tenant (after confirmation: its people and agents are cut off at once, nothing is
 * deleted) or resume it. `onChanged` gets the tenant as the API answers it.
 */
export function SuspendOrResume({ tenant, onChanged }: { tenant: Tenant; onChanged: (tenant: Tenant) => void }) {
  const [error, setError] = useState<unknown>(undefined);
  const path = { params: { path: { slug: tenant.slug } } };
  if (tenant.suspendedAt) {
    return (
      <>
        <PlainButton
          onPress={() => {
            setError(undefined);
            ok(api.POST('/v1/tenants/{slug}/resume', path)).then(onChanged, setError);
          }}
        >
          Resume {tenant.slug}
        </PlainButton>
        <ErrorMessage error={error} />
      </>
    );
  }
  return (
    <ModalDialog title={`Suspend tenant ${tenant.slug}?`} trigger={<DangerButton>Suspend {tenant.slug}</DangerButton>}>
      {(close) => (
        <>
          <p>
            Every token and browser session of <strong>{tenant.name}</strong> is refused at once (403 tenant_suspended),
            and nobody can sign in to it, until you resume it. Nothing is deleted.
          </p>
          <ErrorMessage error={error} />
          <div className="form-actions">
            <DangerButton
              onPress={() => {
                ok(api.POST('/v1/tenants/{slug}/suspend', path)).then((updated) => {
                  close();
                  onChanged(updated);
                }, setError);
              }}
            >
              Suspend tenant
            </DangerButton>
            <PlainButton onPress={close} autoFocus>
              Cancel
            </PlainButton>
          </div>
        </>
      )}
    </ModalDialog>
  );
}
