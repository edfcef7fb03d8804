import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { assertMigrationSequence, type Migration } from '@cairn/db';
import { type DataSource, type EntityManager } from 'typeorm';
import { TENANT_MIGRATIONS } from './tenant-migrations';
import { tenantSearchPath } from './tenant-ref';

export interface TenantMigrationReport {
  readonly tenantId: string;
  readonly slug: string;
  readonly schema: string;
  readonly fromVersion: number;
  readonly toVersion: number;
  readonly status: 'migrated' | 'up-to-date' | 'failed';
  readonly durationMs: number;
  /** For a failure: the version that failed and the database's message (operator-facing). */
  readonly error?: { version: number; message: string };
}

interface TenantRow {
  id: string;
  slug: string;
  schema_name: string;
  schema_version: number;
}

/**
 * Brings tenant schemas to the latest version. Each version commits in its own
 * transaction, so a failure leaves the tenant at its last good version and a rerun resumes.
 */
@Injectable()
export class TenantMigrator {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
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
      await this.applyOne(manager, tenantId, migration);
    }
    return this.latestVersion;
  }

  /** Migrates every live tenant, oldest first, reporting each; one failure never stops the rest. */
  async migrateAll(onReport: (report: TenantMigrationReport) => void): Promise<TenantMigrationReport[]> {
    const tenants = await this.dataSource.query<TenantRow[]>(
      `SELECT id, slug, schema_name, schema_version FROM cairn.tenants
       WHERE deleted_at IS NULL ORDER BY created_at, id`,
    );
    const reports: TenantMigrationReport[] = [];
    for (const tenant of tenants) {
      const report = await this.migrateTenant(tenant);
      reports.push(report);
      onReport(report);
    }
    return reports;
  }

  private async migrateTenant(tenant: TenantRow): Promise<TenantMigrationReport> {
    const started = performance.now();
    const base = {
      tenantId: tenant.id,
      slug: tenant.slug,
      schema: tenant.schema_name,
      fromVersion: tenant.schema_version,
    };
    let version = tenant.schema_version;
    for (const migration of this.migrations.filter((m) => m.version > tenant.schema_version)) {
      try {
        const applied = await this.dataSource.transaction(async (manager) => {
          // The row lock serialises with anything else touching this tenant's version.
          const [row] = await manager.query<{ schema_version: number }[]>(
            `SELECT schema_version FROM cairn.tenants WHERE id = $1 AND deleted_at IS NULL FOR UPDATE`,
            [tenant.id],
          );
          if (!row || row.schema_version >= migration.version) return false;
          await manager.query(`SELECT set_config('search_path', $1, true)`, [tenantSearchPath(tenant.schema_name)]);
          await this.applyOne(manager, tenant.id, migration);
          return true;
        });
        if (applied) version = migration.version;
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

  private async applyOne(manager: EntityManager, tenantId: string, migration: Migration): Promise<void> {
    const started = performance.now();
    await migration.up((sql, parameters) => manager.query(sql, parameters));
    await manager.query(
      `INSERT INTO cairn.tenant_migrations (tenant_id, version, name, duration_ms) VALUES ($1, $2, $3, $4)`,
      [tenantId, migration.version, migration.name, Math.round(performance.now() - started)],
    );
    await manager.query(`UPDATE cairn.tenants SET schema_version = $2 WHERE id = $1`, [tenantId, migration.version]);
  }
}
