import { join } from 'node:path';
import { expectCommittedFile } from '@cairn/testing';
import { TENANT_MIGRATIONS_SQL } from './tenant-migrations.sql';

/** The tenant migration lock as TenantMigrationsRepository.applyLocked sends it (libs/tenancy/sql/tenant-migration-lock.sql). */
describe('tenant migration lock SQL', () => {
  it('matches the committed snapshot', () => {
    const text = [
      "-- Tenant migration lock: the first statement of every tenant migration step, in that step's own transaction",
      '-- (TenantMigrationsRepository.applyLocked, libs/tenancy/src/tenant-migrations.repository.ts), under the',
      '-- migration advisory lock (libs/db/sql/migration-lock.sql). $1 = the tenant id.',
      '-- No row: the tenant was deleted meanwhile; a version at or past the step: another run applied it.',
      `${TENANT_MIGRATIONS_SQL.lockTenant};`,
      '',
      "-- then, in the same transaction, the tenant's schema first on the search path ($1 = '\"t_…\", public')",
      `${TENANT_MIGRATIONS_SQL.setSearchPath};`,
      '',
      "-- after the migration's own statements: its record, and the tenant's new version",
      `${TENANT_MIGRATIONS_SQL.recordMigration};`,
      `${TENANT_MIGRATIONS_SQL.setSchemaVersion};`,
    ].join('\n');
    expectCommittedFile(join(__dirname, '..', 'sql', 'tenant-migration-lock.sql'), text);
  });
});
