import { type INestApplicationContext } from '@nestjs/common';
import { AuditTrail } from '@cairn/audit';
import { DataKeyRotation } from '@cairn/secrets';
import { TenantEntry, TenantsService, toTenantRef } from '@cairn/tenancy';

/** Who the audit names for a rotation run from the command line (the route names `platform-admin`). */
export const CLI_ACTOR = 'operator:keys-rotate';

/**
 * `npm run keys:rotate -- --data-key <tenant-slug>`: the same rotation as
 * `POST /v1/tenants/{slug}/data-key/rotate`, for an operator with database access, audited like it
 * (platform log and the tenant's). Throws NotFoundError for an unknown or deleted tenant.
 */
export async function rotateTenantDataKey(
  app: INestApplicationContext,
  slug: string,
  write: (line: string) => void,
): Promise<void> {
  const tenant = toTenantRef(await app.get(TenantsService).getBySlug(slug));
  const result = await app.get(TenantEntry).run(tenant, () => app.get(DataKeyRotation).rotate());
  await app.get(AuditTrail).record(
    {
      actor: CLI_ACTOR,
      tenantId: tenant.id,
      action: 'tenant.data_key.rotate',
      target: `tenant:${tenant.slug}`,
      outcome: 'success',
      status: null,
      requestId: null,
      details: { version: result.currentVersion },
    },
    tenant.schema,
  );
  write(
    `tenant ${tenant.slug}: data key v${result.currentVersion} now seals new values (was v${result.previousVersion})`,
  );
  write(
    `${result.remaining} of ${result.envelopes} sealed values are on older versions: re-sealed when read ` +
      'and by the maintenance job data-key-reseal; old versions are kept',
  );
}
