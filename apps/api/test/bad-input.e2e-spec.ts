import { createTenant, createUser, issueToken, type TenantFixture } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';

const BODY_LIMIT = 16 * 1024;
const SQLISH = "x'); DROP TABLE cairn.tenants; --";

/** Every write endpoint with a valid body, so each bad variant differs in one thing only. */
function endpoints(tenant: string, userId: string) {
  return [
    { name: 'create tenant', method: 'POST', url: '/v1/tenants', body: { slug: 'valid-slug', name: 'Valid' } },
    {
      name: 'create user',
      method: 'POST',
      url: `/v1/tenants/${tenant}/users`,
      body: { email: 'a@b.co', name: 'A', role: 'member' },
    },
    { name: 'update user', method: 'PATCH', url: `/v1/tenants/${tenant}/users/${userId}`, body: { role: 'reader' } },
    {
      name: 'issue token',
      method: 'POST',
      url: `/v1/tenants/${tenant}/tokens`,
      body: { role: 'reader', projects: '*' },
    },
    {
      name: 'create project',
      method: 'POST',
      url: `/v1/tenants/${tenant}/projects`,
      body: { slug: 'valid-project', name: 'P' },
    },
    { name: 'introspect', method: 'POST', url: '/v1/auth/introspect', body: { token: 'cairn_st_x' } },
    {
      name: 'sign in',
      method: 'POST',
      url: '/v1/session/login',
      body: { tenant, email: 'a@b.co', password: 'x', totp: '123456' },
    },
    { name: 'bootstrap session', method: 'POST', url: '/v1/session/bootstrap', body: { token: 'x' } },
    {
      name: 'set password',
      method: 'POST',
      url: '/v1/session/password',
      body: { token: 'x', password: 'a long enough password' },
    },
    { name: 'confirm second factor', method: 'POST', url: '/v1/session/totp/confirm', body: { code: '123456' } },
    {
      name: 'create platform account',
      method: 'POST',
      url: '/v1/platform/accounts',
      body: { email: 'ops@b.co', name: 'Ops', password: 'a long enough password' },
    },
  ] as const;
}

describe('bad input on every endpoint', () => {
  let api: ApiHarness;
  let tenant: TenantFixture;
  let userId: string;

  beforeAll(async () => {
    api = await startApi({ HTTP_BODY_LIMIT_BYTES: String(BODY_LIMIT) });
    tenant = await createTenant(api.admin);
    userId = (await createUser(api.admin, tenant.slug, 'member')).id;
  });
  afterAll(() => api.close());

  const expectValidationError = (response: { status: number; body: any }) => {
    expect(response.status).toBe(400);
    expect(response.body.error.code).toMatch(/^(validation_failed|invalid_json|bad_request)$/);
    expect(response.body.correlationId).toEqual(expect.any(String));
    expect(JSON.stringify(response.body)).not.toMatch(/node_modules|\.ts:|at [A-Z]\w+\./);
  };

  it('rejects wrong types in every field', async () => {
    for (const endpoint of endpoints(tenant.slug, userId)) {
      for (const field of Object.keys(endpoint.body)) {
        for (const wrong of [42, null, ['a'], { nested: true }, true]) {
          const response = await api.admin.request(endpoint.method, endpoint.url, { ...endpoint.body, [field]: wrong });
          expect({ endpoint: endpoint.name, field, wrong, status: response.status }).toMatchObject({ status: 400 });
          expectValidationError(response);
        }
      }
    }
  });

  it('rejects unknown fields, naming them', async () => {
    for (const endpoint of endpoints(tenant.slug, userId)) {
      const response = await api.admin.request(endpoint.method, endpoint.url, { ...endpoint.body, isAdmin: true });
      expectValidationError(response);
      expect(response.body.error.message).toContain('isAdmin');
    }
  });

  it('rejects bodies that are not JSON objects', async () => {
    for (const endpoint of endpoints(tenant.slug, userId)) {
      for (const payload of ['[]', '"text"', '12', 'null', '{"slug":', '{bad json}']) {
        expectValidationError(await api.admin.request(endpoint.method, endpoint.url, payload));
      }
      expectValidationError(await api.admin.request(endpoint.method, endpoint.url));
    }
  });

  it('answers 413 for oversized bodies and 400 for oversized fields', async () => {
    for (const endpoint of endpoints(tenant.slug, userId)) {
      const huge = await api.admin.request(endpoint.method, endpoint.url, {
        ...endpoint.body,
        pad: 'x'.repeat(BODY_LIMIT),
      });
      expect(huge.status).toBe(413);
      expect(huge.body.error.code).toBe('payload_too_large');
    }
    const longName = await api.admin.post('/v1/tenants', { slug: 'long-name', name: 'n'.repeat(201) });
    expectValidationError(longName);
    const manyProjects = await api.admin.post(`/v1/tenants/${tenant.slug}/tokens`, {
      role: 'reader',
      projects: Array.from({ length: 101 }, (_, i) => `project-${i}`),
    });
    expectValidationError(manyProjects);
  });

  it('rejects invalid and SQL-ish slugs and ids in bodies and paths', async () => {
    for (const slug of [
      'ab',
      'A-upper',
      '1starts-with-digit',
      'has_underscore',
      'x'.repeat(41),
      SQLISH,
      'acme\u0000',
    ]) {
      expectValidationError(await api.admin.post('/v1/tenants', { slug, name: 'x' }));
      expectValidationError(await api.admin.post(`/v1/tenants/${tenant.slug}/projects`, { slug, name: 'x' }));
    }
    for (const path of [encodeURIComponent(SQLISH), 'UPPER', 'a%00b']) {
      const response = await api.admin.get(`/v1/tenants/${path}/users`);
      expect([400, 404]).toContain(response.status);
    }
    expectValidationError(await api.admin.patch(`/v1/tenants/${tenant.slug}/users/not-a-uuid`, { role: 'reader' }));
    expectValidationError(await api.admin.delete(`/v1/tenants/${tenant.slug}/tokens/1 OR 1=1`));
  });

  it('rejects bad paging parameters', async () => {
    for (const query of ['limit=0', 'limit=501', 'limit=abc', 'cursor=not-a-cursor', 'limit=1&unknown=1']) {
      expectValidationError(await api.admin.get(`/v1/tenants?${query}`));
      expectValidationError(await api.admin.get(`/v1/tenants/${tenant.slug}/users?${query}`));
    }
    expectValidationError(await api.admin.get('/v1/audit?before=0'));
  });

  it('stores SQL-ish and control-character text verbatim but cleaned, never executing it', async () => {
    const created = await api.admin.post('/v1/tenants', { slug: 'sqlish-name', name: `${SQLISH}\u0007\u001b[31m` });
    expect(created.status).toBe(201);
    expect(created.body.name).toBe(`${SQLISH}[31m`);
    const user = await api.admin.post(`/v1/tenants/${tenant.slug}/users`, {
      email: 'Robert@Example.com',
      name: "Robert'); DROP TABLE cairn.users;--",
      role: 'reader',
    });
    expect(user.status).toBe(201);
    expect(user.body.email).toBe('robert@example.com');
    const [{ count }] = await api.app.get(DataSource).query<{ count: string }[]>('SELECT count(*) FROM cairn.tenants');
    expect(Number(count)).toBeGreaterThanOrEqual(2);
  });

  it('rejects duplicate emails case-insensitively and bad roles', async () => {
    await api.admin.post(`/v1/tenants/${tenant.slug}/users`, { email: 'dup@example.com', name: 'D', role: 'reader' });
    const dup = await api.admin.post(`/v1/tenants/${tenant.slug}/users`, {
      email: 'DUP@example.com',
      name: 'D',
      role: 'reader',
    });
    expect(dup.status).toBe(409);
    expect(dup.body.error.code).toBe('user_exists');
    expectValidationError(
      await api.admin.post(`/v1/tenants/${tenant.slug}/users`, { email: 'x@y.z', name: 'X', role: 'root' }),
    );
    expectValidationError(
      await api.admin.post(`/v1/tenants/${tenant.slug}/users`, { email: 'not-an-email', name: 'X', role: 'reader' }),
    );
    expectValidationError(await api.admin.patch(`/v1/tenants/${tenant.slug}/users/${userId}`, {}));
  });

  it('rejects bad token requests', async () => {
    const url = `/v1/tenants/${tenant.slug}/tokens`;
    for (const body of [
      { role: 'reader', projects: [] },
      { role: 'reader', projects: '**' },
      { role: 'reader', projects: '*', ttlSeconds: 30 },
      { role: 'reader', projects: '*', ttlSeconds: 1.5 },
      { role: 'reader', projects: '*', agentId: 'has spaces' },
      { role: 'reader', projects: '*', agentId: 'a'.repeat(65) },
      { role: 'reader', projects: '*', userId: 'nope' },
    ]) {
      expectValidationError(await api.admin.post(url, body));
    }
  });

  it('loses nothing: valid requests after all the bad ones still work', async () => {
    const { token } = await issueToken(api.admin, tenant.slug, { role: 'admin' });
    const projects = await api.client.as(token).get(`/v1/tenants/${tenant.slug}/projects`);
    expect(projects.status).toBe(200);
    const users = await api.admin.get(`/v1/tenants/${tenant.slug}/users`);
    expect(users.body.items.length).toBeGreaterThanOrEqual(3);
  });
});
