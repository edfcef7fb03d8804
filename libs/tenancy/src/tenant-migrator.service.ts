import { Inject, Injectable } from '@nestjs/common';
import { assertMigrationSequence, type Migration } from '@cairn/db';
import { type EntityManager } from 'typeorm';
import { TENANT_MIGRATIONS } from './migrations';
import { type MigratableTenant, TenantMigrationsRepository } from './tenant-migrations.repository';

export interface TenantMigrationReport {
  readonly tenantId: string;
  readonly slug: string;
  readonly schema: string;
  /** The cluster the schema lives on (docs/scaling.md). */
  readonly cluster: string;
  readonly fromVersion: number;
  readonly toVersion: number;
  readonly status: 'migrated' | 'up-to-date' | 'failed';
  readonly durationMs: number;
  /** For a failure: the version that failed and the database's message (operator-facing). */
  readonly error?: { version: number; message: string };
}

/**
 * Brings tenant schemas to the latest version. Each version commits in its own
 * transaction, so a failure leaves the tenant at its last good version and a rerun resumes.
 */
@Injectable()
export class TenantMigrator {
  constructor(
    private readonly repository: TenantMigrationsRepository,
    @Inject(TENANT_MIGRATIONS) private readonly migrations: readonly Migration[],
  ) {
    assertMigrationSequence('tenant', migrations);
  }

  get latestVersion(): number {
    return this.migrations.length;
  }

  /** Used at tenant creation, inside the caller's transaction, with the search path already set. */
  async applyAllWithin(manager: EntityManager, tenantId: string): Promise<number> {
    for (const migration of this.migrations) {
      await this.repository.apply(manager, tenantId, migration);
    }
    return this.latestVersion;
  }

  /**
   * Tenant creation on a member cluster: every migration in `member`'s transaction (search path
   * set), the schema stamped with the version, and the records in `home`'s, which the caller
   * commits after `member`'s.
   */
  async applyAllAcross(
    member: EntityManager,
    home: EntityManager,
    tenant: { id: string; schema: string },
  ): Promise<number> {
    for (const migration of this.migrations) {
      const started = performance.now();
      await this.repository.runStatements(member, migration);
      await this.repository.record(home, tenant.id, migration, Math.round(performance.now() - started));
    }
    await this.repository.stamp(member, tenant.schema, this.latestVersion);
    return this.latestVersion;
  }

  /** Migrates every live tenant, oldest first, reporting each; one failure never stops the rest. */
  async migrateAll(onReport: (report: TenantMigrationReport) => void): Promise<TenantMigrationReport[]> {
    const tenants = await this.repository.liveTenants();
    const reports: TenantMigrationReport[] = [];
    for (const tenant of tenants) {
      const report = await this.migrateTenant(tenant);
      reports.push(report);
      onReport(report);
    }
    return reports;
  }

  private async migrateTenant(tenant: MigratableTenant): Promise<TenantMigrationReport> {
    const started = performance.now();
    const base = {
      tenantId: tenant.id,
      slug: tenant.slug,
      schema: tenant.schema_name,
      cluster: tenant.cluster,
      fromVersion: tenant.schema_version,
    };
    let version = tenant.schema_version;
    for (const migration of this.migrations.filter((m) => m.version > tenant.schema_version)) {
      try {
        if (await this.repository.applyLocked(tenant, migration)) version = migration.version;
      } catch (error) {
        return {
          ...base,
          toVersion: version,
          status: 'failed',
          durationMs: Math.round(performance.now() - started),
          error: { version: migration.version, message: error instanceof Error ? error.message : String(error) },
        };
      }
    }
    return {
      ...base,
      toVersion: version,
      status: version === tenant.schema_version ? 'up-to-date' : 'migrated',
      durationMs: Math.round(performance.now() - started),
    };
  }
}
