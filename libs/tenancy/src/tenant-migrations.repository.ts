import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { type Migration, NoSqlSnapshot, SNAPSHOT_EXAMPLE as EX, SqlSnapshot } from '@cairn/db';
import { type DataSource, type EntityManager } from 'typeorm';
import { TENANT_MIGRATION_LIST } from './migrations';
import { schemaNameFor, tenantSearchPath } from './tenant-ref';
import { TENANT_MIGRATIONS_SQL } from './tenant-migrations.sql';

/** A live tenant as the migrator sees it. */
export interface MigratableTenant {
  readonly id: string;
  readonly slug: string;
  readonly schema_name: string;
  readonly schema_version: number;
}

/** The control-schema side of tenant migrations: which tenants, their versions, and each step's record. */
@Injectable()
export class TenantMigrationsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  @SqlSnapshot({ params: [] })
  liveTenants(): Promise<MigratableTenant[]> {
    return this.dataSource.query<MigratableTenant[]>(TENANT_MIGRATIONS_SQL.liveTenants);
  }

  /**
   * Applies `migration` to the tenant in a transaction of its own, under the tenant's row lock.
   * False when the tenant is gone or already at that version (another run got there first).
   */
  @SqlSnapshot({
    name: "a migration past the tenant's version, whose own statements are left out",
    params: [
      {
        id: EX.tenantId,
        slug: EX.tenantSlug,
        schema_name: schemaNameFor(EX.tenantId),
        schema_version: TENANT_MIGRATION_LIST.length,
      },
      { version: TENANT_MIGRATION_LIST.length + 1, name: 'example', up: () => Promise.resolve() },
    ],
  })
  applyLocked(tenant: MigratableTenant, migration: Migration): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      // The row lock serialises with anything else touching this tenant's version.
      const [row] = await manager.query<{ schema_version: number }[]>(TENANT_MIGRATIONS_SQL.lockTenant, [tenant.id]);
      if (!row || row.schema_version >= migration.version) return false;
      await manager.query(TENANT_MIGRATIONS_SQL.setSearchPath, [tenantSearchPath(tenant.schema_name)]);
      await this.apply(manager, tenant.id, migration);
      return true;
    });
  }

  /** Runs one migration on `manager` (search path already set) and records it. */
  @NoSqlSnapshot(
    "runs on the EntityManager of its caller's transaction: its statements show under applyLocked (and the migrations' own in libs/tenancy/src/migrations)",
  )
  async apply(manager: EntityManager, tenantId: string, migration: Migration): Promise<void> {
    const started = performance.now();
    await migration.up((sql, parameters) => manager.query(sql, parameters));
    await manager.query(TENANT_MIGRATIONS_SQL.recordMigration, [
      tenantId,
      migration.version,
      migration.name,
      Math.round(performance.now() - started),
    ]);
    await manager.query(TENANT_MIGRATIONS_SQL.setSchemaVersion, [tenantId, migration.version]);
  }
}
