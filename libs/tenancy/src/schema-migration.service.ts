import { Injectable } from '@nestjs/common';
import { type AppliedMigration, ControlSchemaRepository } from './control-schema.repository';
import { type TenantMigrationReport, TenantMigrator } from './tenant-migrator.service';

export interface MigrationRunReport {
  readonly control: {
    readonly fromVersion: number;
    readonly toVersion: number;
    readonly applied: AppliedMigration[];
    /** Member clusters (DATABASE_CLUSTERS) prepared for their tenants: extensions and the audit outbox. */
    readonly clusters: string[];
  };
  readonly tenants: TenantMigrationReport[];
  readonly failed: number;
}

export interface MigrationListener {
  waiting(): void;
  controlDone(report: MigrationRunReport['control']): void;
  tenantDone(report: TenantMigrationReport): void;
}

/**
 * `npm run migrate`: control schema first (on home, then the cluster-local part on each member
 * cluster), then every tenant wherever it is placed, all under one advisory
 * lock so concurrent runs (two Helm hooks, a developer and CI) never interleave.
 */
@Injectable()
export class SchemaMigrationService {
  constructor(
    private readonly control: ControlSchemaRepository,
    private readonly tenants: TenantMigrator,
  ) {}

  run(listener: MigrationListener): Promise<MigrationRunReport> {
    return this.control.withMigrationLock(
      () => listener.waiting(),
      async () => {
        const fromVersion = await this.control.currentVersion();
        const applied = await this.control.migrate();
        const clusters = await this.control.migrateMembers();
        const control = { fromVersion, toVersion: this.control.latestVersion, applied, clusters };
        listener.controlDone(control);
        const tenants = await this.tenants.migrateAll((report) => listener.tenantDone(report));
        return { control, tenants, failed: tenants.filter((report) => report.status === 'failed').length };
      },
    );
  }
}
