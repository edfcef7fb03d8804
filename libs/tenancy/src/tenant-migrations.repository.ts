import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import {
  ClusterPools,
  HOME_CLUSTER,
  type Migration,
  NoSqlSnapshot,
  SNAPSHOT_EXAMPLE as EX,
  SqlSnapshot,
} from '@cairn/db';
import { type DataSource, type EntityManager } from 'typeorm';
import { TENANT_MIGRATION_LIST } from './migrations';
import { quotedSchema, schemaNameFor, tenantSearchPath } from './tenant-ref';
import { TENANT_MIGRATIONS_SQL } from './tenant-migrations.sql';
import { type TenantSchemaBaseline } from './tenant-schema-baseline';

/** A live tenant as the migrator sees it. */
export interface MigratableTenant {
  readonly id: string;
  readonly slug: string;
  readonly schema_name: string;
  readonly schema_version: number;
  /** The cluster the schema lives on (docs/scaling.md). */
  readonly cluster: string;
}

/** The control-schema side of tenant migrations: which tenants, their versions, and each step's record. */
@Injectable()
export class TenantMigrationsRepository {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly pools: ClusterPools,
  ) {}

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
        cluster: HOME_CLUSTER,
      },
      { version: TENANT_MIGRATION_LIST.length + 1, name: 'example', up: () => Promise.resolve() },
    ],
  })
  applyLocked(tenant: MigratableTenant, migration: Migration): Promise<boolean> {
    return this.dataSource.transaction(async (manager) => {
      // The row lock serialises with anything else touching this tenant's version.
      const [row] = await manager.query<{ schema_version: number }[]>(TENANT_MIGRATIONS_SQL.lockTenant, [tenant.id]);
      if (!row || row.schema_version >= migration.version) return false;
      if (tenant.cluster !== HOME_CLUSTER) {
        await this.applyOnMember(manager, tenant, migration);
        return true;
      }
      await manager.query(TENANT_MIGRATIONS_SQL.setSearchPath, [tenantSearchPath(tenant.schema_name)]);
      await this.apply(manager, tenant.id, migration);
      return true;
    });
  }

  /**
   * A tenant on a member cluster: the migration commits there (with the schema's version stamp),
   * then its record commits on home, in `home` (holding the tenant's row lock). A stamp already at
   * the version means a run died between the two: the migration is only recorded.
   */
  @NoSqlSnapshot('runs on a member cluster (none in the snapshot database) and on the home transaction of applyLocked')
  async applyOnMember(home: EntityManager, tenant: MigratableTenant, migration: Migration): Promise<void> {
    const member = await this.pools.dataSource(tenant.cluster);
    const started = performance.now();
    await member.transaction(async (manager) => {
      const [stamp] = await manager.query<{ version: number }[]>(TENANT_MIGRATIONS_SQL.readStamp, [tenant.schema_name]);
      if (stamp.version >= migration.version) return;
      await manager.query(TENANT_MIGRATIONS_SQL.setSearchPath, [tenantSearchPath(tenant.schema_name)]);
      await this.runStatements(manager, migration);
      await this.stamp(manager, tenant.schema_name, migration.version);
    });
    await this.record(home, tenant.id, migration, Math.round(performance.now() - started));
  }

  /** Stamps a member cluster's tenant schema with its version, in the migration's transaction. */
  @NoSqlSnapshot('runs on the EntityManager of a member-cluster transaction (applyOnMember, provisioning)')
  async stamp(manager: EntityManager, schema: string, version: number): Promise<void> {
    // COMMENT takes no parameters; the version is an integer and the schema name is checked.
    await manager.query(`COMMENT ON SCHEMA ${quotedSchema(schema)} IS 'cairn:schema_version=${Math.trunc(version)}'`);
  }

  /** Runs one migration on `manager` (search path already set) and records it. */
  @NoSqlSnapshot(
    "runs on the EntityManager of its caller's transaction: its statements show under applyLocked (and the migrations' own in libs/tenancy/src/migrations)",
  )
  async apply(manager: EntityManager, tenantId: string, migration: Migration): Promise<void> {
    const started = performance.now();
    await this.runStatements(manager, migration);
    await this.record(manager, tenantId, migration, Math.round(performance.now() - started));
  }

  /**
   * Sends one migration's own statements on `manager` (search path already set), unrecorded: the
   * caller records it where the record belongs (a member cluster's schema is recorded on home).
   */
  @NoSqlSnapshot(
    "runs on the EntityManager of its caller's transaction; the statements are the migrations' own, in libs/tenancy/src/migrations",
  )
  async runStatements(manager: EntityManager, migration: Migration): Promise<void> {
    await migration.up((sql, parameters) => manager.query(sql, parameters));
  }

  /**
   * Runs the baseline script for a new schema on `manager` (search path already set): one round
   * trip of statements, without parameters (the simple protocol carries several statements).
   */
  @NoSqlSnapshot('runs in the provisioning transaction; its statements are the baseline, in migrations/baseline.ts')
  async runBaseline(manager: EntityManager, baseline: TenantSchemaBaseline): Promise<void> {
    await manager.query(baseline.sql);
  }

  /** Records the migrations a baseline stands for as applied to the tenant, on home. */
  @NoSqlSnapshot("runs on the EntityManager of the provisioning transaction (home's)")
  async recordBaseline(manager: EntityManager, tenantId: string, migrations: readonly Migration[]): Promise<void> {
    await manager.query(TENANT_MIGRATIONS_SQL.recordBaseline, [
      tenantId,
      migrations.map((migration) => migration.version),
      migrations.map((migration) => migration.name),
    ]);
    await manager.query(TENANT_MIGRATIONS_SQL.setSchemaVersion, [tenantId, migrations.at(-1)?.version ?? 0]);
  }

  /** Records a migration applied to the tenant, on home (`manager` is a home transaction's). */
  @NoSqlSnapshot("runs on the EntityManager of its caller's transaction: its statements show under applyLocked")
  async record(manager: EntityManager, tenantId: string, migration: Migration, durationMs: number): Promise<void> {
    await manager.query(TENANT_MIGRATIONS_SQL.recordMigration, [
      tenantId,
      migration.version,
      migration.name,
      durationMs,
    ]);
    await manager.query(TENANT_MIGRATIONS_SQL.setSchemaVersion, [tenantId, migration.version]);
  }
}
