import { type TestingModule } from '@nestjs/testing';
import { MissingTenantContextError } from '@cairn/common';
import { ProjectsModule, ProjectsService } from '@cairn/projects';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { TenantDb } from './tenant-db.service';
import { TenantEntry } from './tenant-entry.service';
import { TenantTransaction } from './tenant-transaction.service';
import { TenancyModule } from './tenancy.module';
import { TenantsService, toTenantRef } from './tenants.service';
import { type TenantRef } from './tenant-ref';

describe('tenant context on one shared pool (integration)', () => {
  let database: TestDatabase;
  let moduleRef: TestingModule;
  let entry: TenantEntry;
  let projects: ProjectsService;
  let tenantA: TenantRef;
  let tenantB: TenantRef;

  beforeAll(async () => {
    database = await createTestDatabase();
    // Two connections for hundreds of concurrent units of work: connections are reused constantly.
    const config = testConfig(database.url, testRedisUrl(), { DATABASE_POOL_MAX: '2' });
    moduleRef = await createDbTestingModule(config, [TenancyModule, ProjectsModule]);
    entry = moduleRef.get(TenantEntry);
    projects = moduleRef.get(ProjectsService);
    const tenants = moduleRef.get(TenantsService);
    tenantA = toTenantRef(await tenants.create({ slug: 'isolation-a', name: 'A' }));
    tenantB = toTenantRef(await tenants.create({ slug: 'isolation-b', name: 'B' }));
    for (const [tenant, prefix] of [
      [tenantA, 'alpha'],
      [tenantB, 'beta'],
    ] as const) {
      await entry.run(tenant, async () => {
        for (let i = 0; i < 3; i += 1) await projects.create({ slug: `${prefix}-${i}`, name: `${prefix} ${i}` });
      });
    }
  });

  afterAll(async () => {
    await moduleRef.close();
    await database.drop();
  });

  it('never shows one tenant the rows of another under heavy concurrency', async () => {
    const tx = moduleRef.get(TenantTransaction);
    const db = moduleRef.get(TenantDb);
    const units = Array.from({ length: 300 }, (_, i) => {
      const tenant = i % 2 === 0 ? tenantA : tenantB;
      return entry.run(tenant, () =>
        tx.run(async () => {
          // Yield inside the transaction so units on the two connections interleave.
          await db.query('SELECT pg_sleep(0.001)');
          const rows = await db.query<{ slug: string }>('SELECT slug FROM projects ORDER BY slug');
          return { tenant: tenant.slug, slugs: rows.map((row) => row.slug) };
        }),
      );
    });
    const results = await Promise.all(units);
    for (const result of results) {
      const expected = result.tenant === 'isolation-a' ? 'alpha' : 'beta';
      expect(result.slugs).toEqual([`${expected}-0`, `${expected}-1`, `${expected}-2`]);
    }
  });

  it('re-resolves a prepared statement for each tenant on the same pooled connection', async () => {
    const tx = moduleRef.get(TenantTransaction);
    const db = moduleRef.get(TenantDb);
    const text = 'SELECT slug FROM projects WHERE slug LIKE $1 ORDER BY slug';
    const units = Array.from({ length: 200 }, (_, i) => {
      const tenant = i % 2 === 0 ? tenantA : tenantB;
      return entry.run(tenant, () =>
        tx.run(async () => {
          await db.query('SELECT pg_sleep(0.001)');
          const rows = await db.queryPrepared<{ slug: string }>(text, ['%-%']);
          const [prepared] = await db.query<{ n: number }>(
            'SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement = $1',
            [text],
          );
          return { tenant: tenant.slug, slugs: rows.map((row) => row.slug), prepared: prepared?.n };
        }),
      );
    });
    for (const result of await Promise.all(units)) {
      const expected = result.tenant === 'isolation-a' ? 'alpha' : 'beta';
      expect(result.slugs).toEqual([`${expected}-0`, `${expected}-1`, `${expected}-2`]);
      // Prepared once on this connection, whichever tenant came first.
      expect(result.prepared).toBe(1);
    }
    await expect(
      entry.run(tenantA, () => tx.run(() => db.queryPrepared('SELECT no_such_column FROM projects', []))),
    ).rejects.toMatchObject({ name: 'QueryFailedError', driverError: expect.objectContaining({ code: '42703' }) });
  });

  it('keeps the search path transaction-local, so pooled connections never carry a tenant', async () => {
    const dataSource = moduleRef.get(DataSource);
    await entry.run(tenantA, () => projects.list('*'));
    const paths = await Promise.all(
      [1, 2, 3, 4].map(() => dataSource.query<{ search_path: string }[]>('SHOW search_path')),
    );
    for (const [row] of paths) expect(row?.search_path).not.toContain('t_');
  });

  it('throws when a repository is reached without a tenant context', async () => {
    await expect(projects.list('*')).rejects.toBeInstanceOf(MissingTenantContextError);
    expect(() => moduleRef.get(TenantDb).manager()).toThrow(MissingTenantContextError);
  });

  it('throws when a repository is reached in a tenant context but outside its transaction', () => {
    entry.run(tenantA, () => {
      expect(() => moduleRef.get(TenantDb).manager()).toThrow(MissingTenantContextError);
    });
  });

  it('runs after-commit steps once the outermost transaction commits, and never after a rollback', async () => {
    const tx = moduleRef.get(TenantTransaction);
    const db = moduleRef.get(TenantDb);
    const seen: string[] = [];
    await entry.run(tenantA, () =>
      tx.run(async () => {
        tx.onCommit(async () => {
          // Committed work is visible from another connection by now.
          const rows = await moduleRef
            .get(DataSource)
            .query<unknown[]>(`SELECT 1 FROM "${tenantA.schema}".projects WHERE slug = 'after-commit'`);
          seen.push(`outer:${rows.length}`);
        });
        await projects.create({ slug: 'after-commit', name: 'After commit' });
        await tx.run(async () => {
          tx.onCommit(() => {
            seen.push('nested');
            return Promise.resolve();
          });
          await db.query('SELECT 1');
        });
        expect(seen).toEqual([]);
      }),
    );
    expect(seen).toEqual(['outer:1', 'nested']);
    await expect(
      entry.run(tenantA, () =>
        tx.run(() => {
          tx.onCommit(() => {
            seen.push('rolled back');
            return Promise.resolve();
          });
          throw new Error('abort');
        }),
      ),
    ).rejects.toThrow('abort');
    expect(seen).toEqual(['outer:1', 'nested']);
    expect(() => tx.onCommit(() => Promise.resolve())).toThrow();
  });

  it('sets settings for the transaction only: the outermost in its first statement, a nested call in the same transaction', async () => {
    const tx = moduleRef.get(TenantTransaction);
    const db = moduleRef.get(TenantDb);
    const setting = async (name: string) =>
      (await db.query<{ value: string | null }>(`SELECT current_setting($1, true) AS value`, [name]))[0].value;
    const seen = await entry.run(tenantA, () =>
      tx.run(
        async () => ({
          outer: await setting('cairn.example_outer'),
          nested: await tx.run(() => setting('cairn.example_nested'), { 'cairn.example_nested': 'inner' }),
          // The nested call joined the outer transaction: its setting lasts until that one ends.
          afterNested: await setting('cairn.example_nested'),
          path: await setting('search_path'),
        }),
        { 'cairn.example_outer': 'outer' },
      ),
    );
    expect(seen).toEqual({
      outer: 'outer',
      nested: 'inner',
      afterNested: 'inner',
      path: `"${tenantA.schema}", public`,
    });
    // Transaction-local: the next transaction (two pooled connections) carries neither.
    for (let i = 0; i < 4; i += 1) {
      const later = await entry.run(tenantB, () =>
        tx.run(async () => [await setting('cairn.example_outer'), await setting('cairn.example_nested')]),
      );
      expect(later.map((value) => value ?? '')).toEqual(['', '']);
    }
  });

  it('scopes a project list to the slugs a token may read', async () => {
    const visible = await entry.run(tenantB, () => projects.list(['beta-1', 'alpha-0']));
    expect(visible.map((project) => project.slug)).toEqual(['beta-1']);
  });
});
