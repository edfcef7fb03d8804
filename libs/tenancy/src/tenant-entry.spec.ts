import { type TestingModule } from '@nestjs/testing';
import { MissingTenantContextError } from '@cairn/common';
import { createDbTestingModule, createTestDatabase, type TestDatabase, testConfig, testRedisUrl } from '@cairn/testing';
import { TenantContext } from './tenant-context.service';
import { TenantDb } from './tenant-db.service';
import { TenantEntry } from './tenant-entry.service';
import { type LiveTenant } from './tenant-ref';
import { TenancyModule } from './tenancy.module';
import { TenantsService, toLiveTenant } from './tenants.service';

describe('TenantEntry: the one way into a tenant (integration)', () => {
  let database: TestDatabase;
  let moduleRef: TestingModule;
  let entry: TenantEntry;
  let context: TenantContext;
  let tenants: TenantsService;
  let live: LiveTenant;

  beforeAll(async () => {
    database = await createTestDatabase();
    moduleRef = await createDbTestingModule(testConfig(database.url, testRedisUrl()), [TenancyModule]);
    entry = moduleRef.get(TenantEntry);
    context = moduleRef.get(TenantContext);
    tenants = moduleRef.get(TenantsService);
    live = toLiveTenant(await tenants.create({ slug: 'entry-live', name: 'Entry Live' }));
  });

  afterAll(async () => {
    await moduleRef.close();
    await database.drop();
  });

  const schemaOfTransaction = () =>
    moduleRef
      .get(TenantDb)
      .query<{ schema: string }>('SELECT current_schema() AS schema')
      .then(([row]) => row?.schema);

  it('runs work as a live tenant found by id, told its name, and leaves no context behind', async () => {
    const seen = await entry.runIfLive(
      live.id,
      (tenant) => Promise.resolve({ told: tenant, current: context.require('test') }),
      () => 'gone' as const,
    );
    expect(seen).toEqual({
      told: live,
      current: { id: live.id, slug: live.slug, schema: live.schema, name: live.name },
    });
    expect(context.current()).toBeUndefined();
  });

  it('runs nothing for a deleted or unknown tenant and answers what the caller gives for it', async () => {
    const doomed = await tenants.create({ slug: 'entry-doomed', name: 'Doomed' });
    await tenants.delete(doomed.slug);
    const work = jest.fn(() => Promise.resolve('ran'));
    expect(await entry.runIfLive(doomed.id, work, () => 'gone')).toBe('gone');
    expect(await entry.runIfLive('00000000-0000-4000-8000-000000000000', work, () => 'gone')).toBe('gone');
    expect(work).not.toHaveBeenCalled();
  });

  it('binds the transaction to the entered tenant: its schema first on the search path', async () => {
    expect(await entry.transaction(live, schemaOfTransaction)).toBe(live.schema);
    // Entered but not in a transaction: repositories refuse rather than use a pooled connection.
    entry.run(live, () => expect(() => moduleRef.get(TenantDb).manager()).toThrow(MissingTenantContextError));
  });

  it('enters another tenant afresh from inside one, never joining the outer transaction', async () => {
    const other = toLiveTenant(await tenants.create({ slug: 'entry-other', name: 'Other' }));
    const schemas = await entry.transaction(live, async () => ({
      outer: await schemaOfTransaction(),
      inner: await entry.transaction(other, schemaOfTransaction),
      after: await schemaOfTransaction(),
    }));
    expect(schemas).toEqual({ outer: live.schema, inner: other.schema, after: live.schema });
  });
});
