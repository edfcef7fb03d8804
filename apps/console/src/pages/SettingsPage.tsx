import { useTenantSlug } from '../session';
import { PageHeader } from '../ui/layout';
import { useCan } from '../ui/permissions';
import { DataKeySection, TenantSettingsForm } from '../ui/settings';

/** A tenant admin's settings; the data key only for whoever may rotate it (no tenant role may). */
export function SettingsPage() {
  const tenant = useTenantSlug();
  const can = useCan();
  return (
    <>
      <PageHeader title="Settings" />
      {can('tenant.settings.manage') && <TenantSettingsForm tenant={tenant} />}
      {can('tenant.keys.rotate') && <DataKeySection tenant={tenant} />}
    </>
  );
}
