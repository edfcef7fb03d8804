import { createProject, createTenant, issueToken, type TestClient, type TestResponse } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';

/**
 * REST requests spend the per-token and per-tenant budgets MCP requests spend (one service,
 * RateLimits, called by the access guard and by the MCP gateway): past them a 429 with
 * Retry-After and the usual error body, whatever the route.
 */
describe('REST rate limits', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    api = await startApi({ RATE_LIMIT_TOKEN_PER_MINUTE: '3', RATE_LIMIT_TENANT_PER_MINUTE: '5' });
  });
  afterAll(() => api.close());

  /** A fresh tenant and project (through the platform admin token, which has no budget) and a token maker. */
  async function world() {
    const tenant = await createTenant(api.admin);
    const project = (await createProject(api.admin, tenant.slug)).slug;
    const agent = async (): Promise<TestClient> =>
      api.client.as((await issueToken(api.admin, tenant.slug, { role: 'agent', projects: [project] })).token);
    return { tenant, url: `/v1/projects/${project}/memories`, agent };
  }

  function expectRefusal(response: TestResponse, scope: 'token' | 'tenant', limit: number): void {
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(response.body).toEqual({
      error: {
        code: 'rate_limited',
        message: `Rate limit exceeded: ${limit} requests per minute per ${scope}; retry in ${retryAfter} s`,
        details: { scope, retryAfterSeconds: retryAfter },
      },
      correlationId: expect.any(String),
    });
  }

  it('refuses the 4th memory request of a token with 429 and Retry-After, and stores nothing', async () => {
    const { tenant, url, agent } = await world();
    const client = await agent();
    expect((await client.post(url, { content: 'The first fact' })).status).toBe(201);
    expect((await client.get(url)).status).toBe(200);
    expect((await client.post(`${url}/search`, { query: 'first fact' })).status).toBe(200);

    expectRefusal(await client.post(url, { content: 'The refused fact' }), 'token', 3);
    expectRefusal(await client.get(url), 'token', 3);
    const rows = await api.app
      .get(DataSource)
      .query<{ content: string }[]>(`SELECT content FROM "${tenant.schema}".memories ORDER BY created_at`);
    expect(rows.map((row) => row.content)).toEqual(['The first fact']);
  });

  it("counts every token of a tenant against the tenant's budget, and no other tenant's", async () => {
    const { url, agent } = await world();
    const first = await agent();
    const second = await agent();
    const statuses: number[] = [];
    for (const client of [first, first, first, second, second]) statuses.push((await client.get(url)).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200]);
    // `second` has made 2 of its 3: the refusal is the tenant's.
    expectRefusal(await second.get(url), 'tenant', 5);

    const other = await world();
    expect((await (await other.agent()).get(other.url)).status).toBe(200);
  });

  it('counts a request the token may not make, and leaves unauthenticated and admin requests alone', async () => {
    const { tenant, url, agent } = await world();
    const client = await agent();
    const elsewhere = (await createProject(api.admin, tenant.slug)).slug;
    for (let i = 0; i < 3; i += 1) {
      expect((await client.get(`/v1/projects/${elsewhere}/memories`)).status).toBe(403);
    }
    expectRefusal(await client.get(url), 'token', 3);
    // No token: 401 as ever, not a budget of its own to exhaust.
    for (let i = 0; i < 5; i += 1) expect((await api.client.get(url)).status).toBe(401);
    // The platform admin token is not a tenant's: it spends no tenant budget.
    for (let i = 0; i < 5; i += 1)
      expect((await api.admin.get(`/v1/tenants/${tenant.slug}/projects`)).status).toBe(200);
  });
});
