import { type TestingModule } from '@nestjs/testing';
import { LOCK_NAMESPACE, type Migration, MIGRATION_LOCK_ID } from '@cairn/db';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type MigrationListener, SchemaMigrationService } from './schema-migration.service';
import { TENANT_MIGRATION_LIST, TENANT_MIGRATIONS } from './migrations';
import { TenancyModule } from './tenancy.module';
import { TenantsService } from './tenants.service';

/** A later tenant migration, as a future issue would add one. */
const addArchived: Migration = {
  version: TENANT_MIGRATION_LIST.length + 1,
  name: 'projects-archived',
  up: async (sql) => {
    await sql('ALTER TABLE projects ADD COLUMN archived boolean NOT NULL DEFAULT false');
  },
};

/** Fails only in tenants whose schema holds a `poison` table. */
function poisonable(version: number): Migration {
  return {
    version,
    name: 'poisonable',
    up: async (sql) => {
      await sql('CREATE TABLE step_marker (id int)');
      const rows = (await sql(`SELECT to_regclass('poison') IS NOT NULL AS poisoned`)) as { poisoned: boolean }[];
      if (rows[0]?.poisoned) throw new Error('poisoned tenant');
    },
  };
}

const quiet: MigrationListener = {
  waiting: () => undefined,
  controlDone: () => undefined,
  tenantDone: () => undefined,
};

describe('npm run migrate across tenants (integration)', () => {
  let database: TestDatabase;
  const modules: TestingModule[] = [];

  async function contextWith(migrations: readonly Migration[]): Promise<TestingModule> {
    const config = testConfig(database.url, testRedisUrl(), {}, 'migrate');
    const moduleRef = await createDbTestingModule(config, [TenancyModule], (builder) =>
      builder.overrideProvider(TENANT_MIGRATIONS).useValue(migrations),
    );
    modules.push(moduleRef);
    return moduleRef;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    for (const moduleRef of modules) await moduleRef.close();
    await database.drop();
  });

  it('migrates 200 tenants with a per-tenant report, and a second run is a no-op', async () => {
    const v1 = await contextWith(TENANT_MIGRATION_LIST);
    const tenants = v1.get(TenantsService);
    for (let i = 0; i < 200; i += 1)
      await tenants.create({ slug: `bulk-${String(i).padStart(3, '0')}`, name: `Bulk ${i}` });

    const v2 = await contextWith([...TENANT_MIGRATION_LIST, addArchived]);
    const lines: string[] = [];
    const report = await v2.get(SchemaMigrationService).run({
      ...quiet,
      tenantDone: (tenant) => lines.push(`${tenant.slug} ${tenant.status}`),
    });
    expect(report.failed).toBe(0);
    expect(report.tenants).toHaveLength(200);
    expect(lines).toHaveLength(200);
    expect(report.tenants.every((t) => t.status === 'migrated' && t.toVersion === addArchived.version)).toBe(true);

    const again = await v2.get(SchemaMigrationService).run(quiet);
    expect(again.control.applied).toHaveLength(0);
    expect(again.tenants.every((t) => t.status === 'up-to-date')).toBe(true);

    const [{ count }] = await v2
      .get(DataSource)
      .query<{ count: string }[]>(`SELECT count(*) FROM cairn.tenant_migrations WHERE version = $1`, [
        addArchived.version,
      ]);
    expect(Number(count)).toBe(200);
    // 200 tenant schemas with every migration: ~25 s on an idle 2-core machine, minutes under load;
    // the bound only stops a hang.
  }, 300_000);

  it('creates new tenants at the latest version in one transaction', async () => {
    const latest = await contextWith([...TENANT_MIGRATION_LIST, addArchived]);
    const tenant = await latest.get(TenantsService).create({ slug: 'fresh-tenant', name: 'Fresh' });
    expect(tenant.schemaVersion).toBe(addArchived.version);
    const columns = await latest
      .get(DataSource)
      .query<{ column_name: string }[]>(
        `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'projects'`,
        [tenant.schemaName],
      );
    expect(columns.map((c) => c.column_name)).toContain('archived');
  });

  it('leaves a failing tenant at its last good version, migrates the others, and resumes', async () => {
    const before = await contextWith([...TENANT_MIGRATION_LIST, addArchived]);
    const tenants = before.get(TenantsService);
    const good = await tenants.create({ slug: 'resume-good', name: 'Good' });
    const bad = await tenants.create({ slug: 'resume-bad', name: 'Bad' });
    const dataSource = before.get(DataSource);
    await dataSource.query(`CREATE TABLE "${bad.schemaName}".poison (id int)`);

    const poisoned = await contextWith([...TENANT_MIGRATION_LIST, addArchived, poisonable(addArchived.version + 1)]);
    const report = await poisoned.get(SchemaMigrationService).run(quiet);
    const byslug = new Map(report.tenants.map((t) => [t.slug, t]));
    expect(report.failed).toBe(1);
    expect(byslug.get('resume-bad')).toMatchObject({
      status: 'failed',
      toVersion: addArchived.version,
      error: { version: addArchived.version + 1, message: 'poisoned tenant' },
    });
    expect(byslug.get('resume-good')).toMatchObject({ status: 'migrated', toVersion: addArchived.version + 1 });
    // The failed step rolled back entirely: no half-applied objects.
    const [marker] = await dataSource.query<{ present: boolean }[]>(`SELECT to_regclass($1) IS NOT NULL AS present`, [
      `"${bad.schemaName}".step_marker`,
    ]);
    expect(marker?.present).toBe(false);

    await dataSource.query(`DROP TABLE "${bad.schemaName}".poison`);
    const resumed = await poisoned.get(SchemaMigrationService).run(quiet);
    expect(resumed.failed).toBe(0);
    expect(resumed.tenants.find((t) => t.slug === 'resume-bad')).toMatchObject({
      status: 'migrated',
      fromVersion: addArchived.version,
      toVersion: addArchived.version + 1,
    });
    expect(resumed.tenants.find((t) => t.slug === good.slug)?.status).toBe('up-to-date');
  });

  it('waits for the advisory lock while another run holds it', async () => {
    const moduleRef = await contextWith([...TENANT_MIGRATION_LIST, addArchived]);
    const holder = moduleRef.get(DataSource).createQueryRunner();
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1, $2)', [LOCK_NAMESPACE, MIGRATION_LOCK_ID]);
    let finished = false;
    let signalWaiting: () => void = () => undefined;
    const waiting = new Promise<void>((resolve) => (signalWaiting = resolve));
    const run = moduleRef
      .get(SchemaMigrationService)
      .run({ ...quiet, waiting: signalWaiting })
      .then((report) => {
        finished = true;
        return report;
      });
    await waiting;
    expect(finished).toBe(false);
    await holder.query('SELECT pg_advisory_unlock($1, $2)', [LOCK_NAMESPACE, MIGRATION_LOCK_ID]);
    await holder.release();
    expect((await run).failed).toBe(0);
  });

  it('applies every step exactly once when runs race', async () => {
    const list: Migration[] = [
      ...TENANT_MIGRATION_LIST,
      addArchived,
      poisonable(addArchived.version + 1),
      {
        version: addArchived.version + 2,
        name: 'concurrent-step',
        up: async (sql) => {
          await sql('CREATE TABLE concurrent_step (id int)');
        },
      },
    ];
    const runs = await Promise.all(
      [await contextWith(list), await contextWith(list), await contextWith(list)].map((moduleRef) =>
        moduleRef.get(SchemaMigrationService).run(quiet),
      ),
    );
    expect(runs.reduce((sum, run) => sum + run.failed, 0)).toBe(0);
    const migrated = runs.flatMap((run) => run.tenants.filter((t) => t.status === 'migrated').map((t) => t.slug));
    expect(new Set(migrated).size).toBe(migrated.length);
    const [{ count }] = await modules[0]
      .get(DataSource)
      .query<{ count: string }[]>(`SELECT count(*) FROM cairn.tenant_migrations WHERE name = 'concurrent-step'`);
    expect(Number(count)).toBe(runs[0].tenants.length);
  });
});
