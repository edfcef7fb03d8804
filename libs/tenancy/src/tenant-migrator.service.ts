import { Inject, Injectable } from '@nestjs/common';
import { assertMigrationSequence, type Migration } from '@cairn/db';
import { type EntityManager } from 'typeorm';
import { TENANT_MIGRATIONS } from './migrations';
import { type MigratableTenant, TenantMigrationsRepository } from './tenant-migrations.repository';
import { baselineCovers, TENANT_SCHEMA_BASELINE, type TenantSchemaBaseline } from './tenant-schema-baseline';

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
  private readonly baseline: TenantSchemaBaseline | null;

  constructor(
    private readonly repository: TenantMigrationsRepository,
    @Inject(TENANT_MIGRATIONS) private readonly migrations: readonly Migration[],
    @Inject(TENANT_SCHEMA_BASELINE) baseline: TenantSchemaBaseline | null,
  ) {
    assertMigrationSequence('tenant', migrations);
    // A baseline made from another migration list is never used; the migrations are replayed.
    this.baseline = baselineCovers(baseline, migrations) ? baseline : null;
  }

  get latestVersion(): number {
    return this.migrations.length;
  }

  /**
   * Used at tenant creation, inside the caller's transaction, with the search path already set:
   * the baseline script for the migrations it stands for, then each later one.
   */
  async applyAllWithin(manager: EntityManager, tenantId: string): Promise<number> {
    for (const migration of await this.createFromBaseline(manager, manager, tenantId)) {
      await this.repository.apply(manager, tenantId, migration);
    }
    return this.latestVersion;
  }

  /**
   * Tenant creation on a member cluster: the schema built in `member`'s transaction (search path
   * set) and stamped with the version, and the records in `home`'s, which the caller commits
   * after `member`'s.
   */
  async applyAllAcross(
    member: EntityManager,
    home: EntityManager,
    tenant: { id: string; schema: string },
  ): Promise<number> {
    for (const migration of await this.createFromBaseline(member, home, tenant.id)) {
      const started = performance.now();
      await this.repository.runStatements(member, migration);
      await this.repository.record(home, tenant.id, migration, Math.round(performance.now() - started));
    }
    await this.repository.stamp(member, tenant.schema, this.latestVersion);
    return this.latestVersion;
  }

  /** Runs the baseline in `schemaSide` and records it in `home`; the migrations still to apply. */
  private async createFromBaseline(
    schemaSide: EntityManager,
    home: EntityManager,
    tenantId: string,
  ): Promise<readonly Migration[]> {
    if (!this.baseline) return this.migrations;
    await this.repository.runBaseline(schemaSide, this.baseline);
    await this.repository.recordBaseline(home, tenantId, this.migrations.slice(0, this.baseline.version));
    return this.migrations.slice(this.baseline.version);
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
