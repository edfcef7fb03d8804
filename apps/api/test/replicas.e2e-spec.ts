import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  createTenant,
  createTestDatabase,
  createTestHttpApp,
  createUser,
  issueToken,
  TEST_ADMIN_TOKEN,
  TestClient,
  testConfig,
  type TestDatabase,
  testRedisUrl,
} from '@cairn/testing';
import { ApiModule } from '../src/api.module';
import { eventually } from './process-harness';

/**
 * Two api replicas on one database, as behind a load balancer. Each remembers verified tokens
 * until PostgreSQL's change notice tells it otherwise (token-cache.e2e-spec); the notice
 * normally lands before the next request, and always within moments, so the other replica is
 * asked until it answers (bounded at 1 s).
 */
describe('revocation across replicas', () => {
  let database: TestDatabase;
  let replicas: NestFastifyApplication[];
  let adminA: TestClient;
  let adminB: TestClient;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, testRedisUrl());
    replicas = [
      await createTestHttpApp(ApiModule.register(config), config),
      await createTestHttpApp(ApiModule.register(config), config),
    ];
    adminA = new TestClient(replicas[0], TEST_ADMIN_TOKEN);
    adminB = new TestClient(replicas[1], TEST_ADMIN_TOKEN);
  });
  afterAll(async () => {
    for (const app of replicas) await app.close();
    await database.drop();
  });

  it('a token revoked on one replica is refused by the other', async () => {
    const tenant = await createTenant(adminA);
    const { token, id } = await issueToken(adminA, tenant.slug, { role: 'reader' });
    const onB = adminB.as(token);
    expect((await onB.get('/v1/whoami')).status).toBe(200);
    expect((await adminA.delete(`/v1/tenants/${tenant.slug}/tokens/${id}`)).status).toBe(204);
    expect(await answers(() => onB.get('/v1/whoami'), 401)).toBe(401);
  });

  it('a user disabled on one replica is cut off on the other', async () => {
    const tenant = await createTenant(adminB);
    const user = await createUser(adminB, tenant.slug, 'member');
    const { token } = await issueToken(adminB, tenant.slug, { role: 'member', userId: user.id });
    const onA = adminA.as(token);
    expect((await onA.get('/v1/whoami')).status).toBe(200);
    await adminB.patch(`/v1/tenants/${tenant.slug}/users/${user.id}`, { disabled: true });
    expect(await answers(() => onA.get('/v1/whoami'), 401)).toBe(401);
    expect((await onA.get('/v1/whoami')).body.error.code).toBe('user_disabled');
  });

  it('a tenant suspended on one replica is refused on the other, and back when resumed', async () => {
    const tenant = await createTenant(adminA);
    const { token } = await issueToken(adminA, tenant.slug, { role: 'reader' });
    const onA = adminA.as(token);
    expect((await onA.get('/v1/whoami')).status).toBe(200);
    expect((await adminB.post(`/v1/tenants/${tenant.slug}/suspend`)).status).toBe(200);
    expect(await answers(() => onA.get('/v1/whoami'), 403)).toBe(403);
    expect((await onA.get('/v1/whoami')).body.error.code).toBe('tenant_suspended');
    expect((await adminB.post(`/v1/tenants/${tenant.slug}/resume`)).status).toBe(200);
    expect(await answers(() => onA.get('/v1/whoami'), 200)).toBe(200);
  });

  it('a tenant deleted on one replica is gone on the other', async () => {
    const tenant = await createTenant(adminA);
    const { token } = await issueToken(adminA, tenant.slug, { role: 'admin' });
    await adminB.delete(`/v1/tenants/${tenant.slug}`);
    expect(await answers(() => adminA.as(token).get(`/v1/tenants/${tenant.slug}/projects`), 401)).toBe(401);
  });
});

/** Asks until `request` answers `wanted` (the other replica's notice lands within moments); bounded at 1 s. */
function answers(request: () => Promise<{ status: number }>, wanted: number): Promise<number> {
  return eventually(
    async () => ((await request()).status === wanted ? wanted : undefined),
    1_000,
    `an answer of ${wanted}`,
  );
}
