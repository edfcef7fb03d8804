import { type TestingModule } from '@nestjs/testing';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import { TenantDb } from './tenant-db.service';
import { TenantEntry } from './tenant-entry.service';
import { TenantTransaction } from './tenant-transaction.service';
import { TenancyModule } from './tenancy.module';
import { TenantsService, toTenantRef } from './tenants.service';
import { type TenantRef } from './tenant-ref';

/**
 * DATABASE_POOL_TENANTS_PER_CONNECTION: a pooled connection is replaced once it has worked in that
 * many tenant schemas, so no PostgreSQL backend accumulates the catalog caches of the whole fleet.
 * One connection in the pool, so every transaction shows which backend served it.
 */
describe('pooled connections bounded by the tenants they served (integration)', () => {
  let database: TestDatabase;
  const modules: TestingModule[] = [];
  let tenants: TenantRef[];

  async function contextWith(tenantsPerConnection: string): Promise<TestingModule> {
    const config = testConfig(database.url, testRedisUrl(), {
      DATABASE_POOL_MAX: '1',
      DATABASE_POOL_TENANTS_PER_CONNECTION: tenantsPerConnection,
    });
    const moduleRef = await createDbTestingModule(config, [TenancyModule]);
    modules.push(moduleRef);
    return moduleRef;
  }

  /** The backend pid of one tenant transaction in each of `order`'s tenants, in turn. */
  async function backendsOf(moduleRef: TestingModule, order: readonly number[]): Promise<number[]> {
    const entry = moduleRef.get(TenantEntry);
    const tx = moduleRef.get(TenantTransaction);
    const db = moduleRef.get(TenantDb);
    const pids: number[] = [];
    for (const index of order) {
      const [row] = await entry.run(tenants[index], () =>
        tx.run(() => db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')),
      );
      pids.push(row.pid);
    }
    return pids;
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    const setup = await contextWith('0');
    const service = setup.get(TenantsService);
    tenants = [];
    for (let i = 0; i < 5; i += 1)
      tenants.push(toTenantRef(await service.create({ slug: `recycle-${i}`, name: `${i}` })));
  });

  afterAll(async () => {
    for (const moduleRef of modules) await moduleRef.close();
    await database.drop();
  });

  it('replaces the connection after its third tenant, however often it served each', async () => {
    const pids = await backendsOf(await contextWith('3'), [0, 0, 1, 0, 1, 2, 3, 3, 4, 0, 0]);
    // 0, 1 and 2 on the first backend (repeats do not count); 3, 4 and 0 on the second; then a third.
    expect(new Set(pids.slice(0, 6)).size).toBe(1);
    expect(new Set(pids.slice(6, 10)).size).toBe(1);
    expect(pids[6]).not.toBe(pids[5]);
    expect(pids[10]).not.toBe(pids[9]);
  });

  it('closes the connection of a failed transaction too, and the next one still works', async () => {
    const moduleRef = await contextWith('2');
    const entry = moduleRef.get(TenantEntry);
    const tx = moduleRef.get(TenantTransaction);
    const db = moduleRef.get(TenantDb);
    const [first] = await backendsOf(moduleRef, [0]);
    await expect(
      entry.run(tenants[1], () => tx.run(() => db.query('SELECT no_such_column FROM projects'))),
    ).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '42703' }) });
    const [next] = await backendsOf(moduleRef, [1]);
    expect(next).not.toBe(first);
  });

  it('keeps one connection for ever with the bound off (0)', async () => {
    const pids = await backendsOf(await contextWith('0'), [0, 1, 2, 3, 4, 0, 1, 2, 3, 4]);
    expect(new Set(pids).size).toBe(1);
  });
});
