import { Writable } from 'node:stream';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  createProject,
  createTenant,
  createTestDatabase,
  createTestHttpApp,
  issueToken,
  TEST_ADMIN_TOKEN,
  TestClient,
  testConfig,
  type TestDatabase,
  testRedisUrl,
} from '@cairn/testing';
import pino from 'pino';
import { ApiModule } from '../src/api.module';

describe('logs', () => {
  let database: TestDatabase;
  let app: NestFastifyApplication;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = testConfig(database.url, testRedisUrl(), { LOG_LEVEL: 'trace' });
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    const logger = pino({ level: 'trace', base: { app: 'api' } }, sink);
    app = await createTestHttpApp(ApiModule.register(config), config, 'api', logger);
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  it('log every request with correlation and tenant ids, and never a token', async () => {
    const admin = new TestClient(app, TEST_ADMIN_TOKEN);
    const tenant = await createTenant(admin);
    const { token } = await issueToken(admin, tenant.slug, { role: 'admin' });
    await admin.as(token).request('GET', `/v1/tenants/${tenant.slug}/projects`, undefined, {
      'x-request-id': 'trace-me-123456',
    });
    await admin.as(`${token}x`).get('/v1/whoami');
    await admin.post('/v1/auth/introspect', { token });

    const all = JSON.stringify(lines);
    expect(all).not.toContain(token);
    expect(all).not.toContain(token.slice(9, 30));
    expect(all).not.toContain(TEST_ADMIN_TOKEN);
    const traced = lines.find((line) => line.correlationId === 'trace-me-123456' && line.msg === 'request completed');
    expect(traced).toMatchObject({
      tenantId: tenant.id,
      route: '/v1/tenants/:slug/projects',
      method: 'GET',
      status: 200,
      durationMs: expect.any(Number),
    });
  });

  it('never log the content of a sensitive memory, on success or on error', async () => {
    const admin = new TestClient(app, TEST_ADMIN_TOKEN);
    const tenant = await createTenant(admin);
    const project = (await createProject(admin, tenant.slug)).slug;
    const agent = admin.as((await issueToken(admin, tenant.slug, { role: 'agent', agentId: 'log:probe' })).token);
    const content = 'Grievance filed by Ermenegilda Thorsdottir-Okafor';
    const url = `/v1/projects/${project}/memories`;
    const created = await agent.post(url, { content, sensitive: true });
    expect(created.status).toBe(201);
    const id = created.body.memory.id as string;
    await agent.patch(`${url}/${id}`, { content: `${content}, withdrawn` });
    expect((await agent.patch(`${url}/${id}`, { sensitive: false })).status).toBe(400);
    expect((await agent.post(url, { content, sensitive: 'yes' })).status).toBe(400);
    expect(lines.some((line) => line.route === '/v1/projects/:project/memories')).toBe(true);
    expect(JSON.stringify(lines)).not.toContain('Thorsdottir');
  });
});
