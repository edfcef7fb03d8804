import { randomUUID } from 'node:crypto';
import { type TestingModule } from '@nestjs/testing';
import { type Migration } from '@cairn/db';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type MigrationListener, SchemaMigrationService } from './schema-migration.service';
import { TENANT_MIGRATION_LIST, TENANT_MIGRATIONS } from './migrations';
import { TenancyModule } from './tenancy.module';
import { TenantsService } from './tenants.service';

const quiet: MigrationListener = {
  waiting: () => undefined,
  controlDone: () => undefined,
  tenantDone: () => undefined,
};
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

/**
 * Migration 21 (`kb-retained-from`) dates when each existing knowledge-base document's retention
 * started, so the purge can apply a retention chosen later: from its creation when it was never
 * indexed again, else from its expiry less the tier's shipped default days, kept between its
 * creation and now.
 */
describe('tenant migration 21: kb_documents.retained_from (integration)', () => {
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

  it('backfills from creation, or from the last indexing, and new rows start now', async () => {
    const version = TENANT_MIGRATION_LIST.findIndex((migration) => migration.name === 'kb-retained-from');
    expect(TENANT_MIGRATION_LIST[version].version).toBe(21);
    const before = await contextWith(TENANT_MIGRATION_LIST.slice(0, version));
    const tenant = await before.get(TenantsService).create({ slug: 'retained-from', name: 'Retained' });
    const db = before.get(DataSource);
    const schema = `"${tenant.schemaName}"`;
    const projectId = randomUUID();
    await db.query(`INSERT INTO ${schema}.projects (id, slug, name) VALUES ($1, 'web-app', 'Web')`, [projectId]);
    const now = Date.now();
    const rows = {
      // Indexed once 10 days ago under 14 days.
      once: { tier: 'external', created: now - 10 * DAY, expires: now - 10 * DAY + 14 * DAY },
      // The same, across a daylight-saving change (an hour short).
      dst: { tier: 'internal', created: now - 20 * DAY, expires: now - 20 * DAY + 30 * DAY - HOUR },
      // Created 20 days ago, indexed again 5 days and 3 hours ago under 14 days.
      renewed: { tier: 'external', created: now - 20 * DAY, expires: now - 5 * DAY - 3 * HOUR + 14 * DAY },
      // An expiry the defaults cannot explain: kept no earlier than its creation.
      odd: { tier: 'summary', created: now - 2 * DAY, expires: now + 100 * DAY + 5 * HOUR },
    };
    const ids: Record<string, string> = {};
    for (const [name, row] of Object.entries(rows)) {
      ids[name] = randomUUID();
      await db.query(
        `INSERT INTO ${schema}.kb_documents (id, project_id, source, source_type, retention_tier, content_hash,
           chunk_count, created_at, expires_at)
         VALUES ($1, $2, $3, 'internal', $4, 'hash', 0, $5, $6)`,
        [ids[name], projectId, name, row.tier, new Date(row.created), new Date(row.expires)],
      );
    }

    const after = await contextWith(TENANT_MIGRATION_LIST);
    const report = await after.get(SchemaMigrationService).run(quiet);
    expect(report.failed).toBe(0);
    const found = await db.query<{ id: string; retained_from: Date }[]>(
      `SELECT id, retained_from FROM ${schema}.kb_documents`,
    );
    const started = Object.fromEntries(found.map((row) => [row.id, row.retained_from.getTime()]));
    expect(started[ids.once]).toBe(rows.once.created);
    expect(started[ids.dst]).toBe(rows.dst.created);
    expect(started[ids.renewed]).toBe(now - 5 * DAY - 3 * HOUR);
    expect(started[ids.odd]).toBe(rows.odd.created);

    const fresh = randomUUID();
    await db.query(
      `INSERT INTO ${schema}.kb_documents (id, project_id, source, source_type, retention_tier, content_hash,
         chunk_count, expires_at)
       VALUES ($1, $2, 'fresh', 'internal', 'internal', 'hash', 0, now())`,
      [fresh, projectId],
    );
    const [row] = await db.query<{ same: boolean }[]>(
      `SELECT retained_from = created_at AS same FROM ${schema}.kb_documents WHERE id = $1`,
      [fresh],
    );
    expect(row.same).toBe(true);
  });
});
