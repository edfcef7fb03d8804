import { createProject, createTenant, issueToken, type TestClient } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';

/** Requests for different tenants interleave on a two-connection pool without ever mixing. */
describe('concurrent requests for different tenants on one pool', () => {
  let api: ApiHarness;
  const tenants: { client: TestClient; slug: string; projects: string[] }[] = [];

  beforeAll(async () => {
    api = await startApi({ DATABASE_POOL_MAX: '2' });
    for (const prefix of ['red', 'blue', 'green']) {
      const tenant = await createTenant(api.admin);
      const projects: string[] = [];
      for (let i = 0; i < 4; i += 1)
        projects.push((await createProject(api.admin, tenant.slug, `${prefix}-${i}`)).slug);
      const { token } = await issueToken(api.admin, tenant.slug, { role: 'admin' });
      tenants.push({ client: api.client.as(token), slug: tenant.slug, projects });
    }
  });
  afterAll(() => api.close());

  it('answers every request with its own tenant rows only', async () => {
    const requests = Array.from({ length: 240 }, (_, i) => {
      const tenant = tenants[i % tenants.length];
      return tenant.client.get(`/v1/tenants/${tenant.slug}/projects`).then((response) => ({ tenant, response }));
    });
    for (const { tenant, response } of await Promise.all(requests)) {
      expect(response.status).toBe(200);
      expect(response.body.items.map((project: { slug: string }) => project.slug)).toEqual(tenant.projects);
    }
  });
});
