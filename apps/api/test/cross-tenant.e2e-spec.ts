import { DataSource } from 'typeorm';
import {
  createProject,
  createTenant,
  createUser,
  issueToken,
  type TenantFixture,
  type TestClient,
} from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';

/**
 * Two tenants, each with a user, a project and tokens of every useful kind: nothing one
 * tenant holds may read, list, introspect as active, or modify anything of the other.
 */
describe('tenant isolation through the admin API', () => {
  let api: ApiHarness;
  let a: TenantFixture;
  let b: TenantFixture;
  let aAdmin: TestClient;
  let aMember: TestClient;
  let bUser: { id: string };
  let bToken: { id: string; token: string };

  beforeAll(async () => {
    api = await startApi();
    a = await createTenant(api.admin);
    b = await createTenant(api.admin);
    await createProject(api.admin, a.slug, 'shared-name');
    await createProject(api.admin, b.slug, 'shared-name');
    await createProject(api.admin, b.slug, 'b-secret-project');
    await createUser(api.admin, a.slug, 'admin');
    bUser = await createUser(api.admin, b.slug, 'member');
    aAdmin = api.client.as((await issueToken(api.admin, a.slug, { role: 'admin' })).token);
    aMember = api.client.as((await issueToken(api.admin, a.slug, { role: 'member' })).token);
    bToken = await issueToken(api.admin, b.slug, { role: 'reader' });
  });
  afterAll(() => api.close());

  it('keeps each tenant to its own projects', async () => {
    const list = await aAdmin.get(`/v1/tenants/${a.slug}/projects`);
    expect(list.status).toBe(200);
    expect(list.body.items.map((project: { slug: string }) => project.slug)).toEqual(['shared-name']);
    const fromB = await api.admin.get(`/v1/tenants/${b.slug}/projects`);
    expect(fromB.body.items.map((project: { slug: string }) => project.slug)).toEqual([
      'b-secret-project',
      'shared-name',
    ]);
  });

  it.each([
    ['GET', 'users'],
    ['POST', 'users'],
    ['GET', 'tokens'],
    ['POST', 'tokens'],
    ['GET', 'projects'],
    ['POST', 'projects'],
    ['GET', 'audit'],
  ] as const)("refuses %s on the other tenant's %s with 403 wrong_tenant", async (method, resource) => {
    const body =
      method === 'POST'
        ? resource === 'users'
          ? { email: 'intruder@example.com', name: 'Intruder', role: 'admin' }
          : resource === 'tokens'
            ? { role: 'admin', projects: '*' }
            : { slug: 'intruded', name: 'Intruded' }
        : undefined;
    const response = await aAdmin.request(method, `/v1/tenants/${b.slug}/${resource}`, body);
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('wrong_tenant');
  });

  it("cannot modify the other tenant's users or revoke its tokens", async () => {
    const patch = await aAdmin.patch(`/v1/tenants/${b.slug}/users/${bUser.id}`, { role: 'admin' });
    expect(patch.status).toBe(403);
    const revoke = await aAdmin.delete(`/v1/tenants/${b.slug}/tokens/${bToken.id}`);
    expect(revoke.status).toBe(403);
    // Addressing the other tenant's ids under one's own tenant finds nothing.
    expect((await aAdmin.patch(`/v1/tenants/${a.slug}/users/${bUser.id}`, { role: 'admin' })).status).toBe(404);
    expect((await aAdmin.delete(`/v1/tenants/${a.slug}/tokens/${bToken.id}`)).status).toBe(404);
    expect((await api.client.as(bToken.token).get('/v1/whoami')).status).toBe(200);
    const users = await api.admin.get(`/v1/tenants/${b.slug}/users`);
    expect(users.body.items.find((user: { id: string }) => user.id === bUser.id).role).toBe('member');
  });

  it("never introspects the other tenant's token as active", async () => {
    const response = await aAdmin.post('/v1/auth/introspect', { token: bToken.token });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ active: false });
  });

  it('gives the same answer for a tenant that does not exist (no enumeration)', async () => {
    const response = await aAdmin.get('/v1/tenants/no-such-tenant/users');
    expect(response.status).toBe(403);
    expect(response.body.error.code).toBe('wrong_tenant');
  });

  it('answers 404, not 500, to a request that meets its tenant deleted mid-way (schema dropped)', async () => {
    // What a request racing DELETE /v1/tenants/{slug} meets: the tenant resolved, then its schema gone.
    const doomed = await createTenant(api.admin);
    const schema = (
      await api.app
        .get(DataSource)
        .query<{ schema_name: string }[]>(`SELECT schema_name FROM cairn.tenants WHERE slug = $1`, [doomed.slug])
    )[0].schema_name;
    await api.app.get(DataSource).query(`DROP SCHEMA "${schema}" CASCADE`);
    const settings = await api.admin.patch(`/v1/tenants/${doomed.slug}/settings`, { extractionMode: 'memories' });
    expect(settings.status).toBe(404);
    expect(settings.body.error.code).toBe('not_found');
  });

  it('keeps platform routes to the platform admin token', async () => {
    for (const client of [aAdmin, aMember, api.client.as(bToken.token)]) {
      for (const [method, url] of [
        ['GET', '/v1/tenants'],
        ['POST', '/v1/tenants'],
        ['GET', `/v1/tenants/${a.slug}`],
        ['DELETE', `/v1/tenants/${b.slug}`],
        ['POST', `/v1/tenants/${a.slug}/suspend`],
        ['POST', `/v1/tenants/${b.slug}/resume`],
        ['GET', '/v1/audit'],
      ] as const) {
        const response = await client.request(
          method,
          url,
          method === 'POST' ? { slug: 'sneaky', name: 'x' } : undefined,
        );
        expect(response.status).toBe(403);
        expect(response.body.error.code).toBe('platform_admin_required');
      }
    }
    expect((await api.admin.get(`/v1/tenants/${b.slug}`)).status).toBe(200);
  });

  it('keeps tenant administration to tenant admins', async () => {
    for (const [method, path] of [
      ['GET', 'users'],
      ['GET', 'tokens'],
      ['POST', 'projects'],
      ['GET', 'audit'],
    ] as const) {
      const response = await aMember.request(
        method,
        `/v1/tenants/${a.slug}/${path}`,
        method === 'POST' ? { slug: 'nope', name: 'x' } : undefined,
      );
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('insufficient_role');
    }
  });

  it('records denied admin actions in the audit log of the caller tenant', async () => {
    await aAdmin.post(`/v1/tenants/${b.slug}/tokens`, { role: 'admin', projects: '*' });
    const audit = await aAdmin.get(`/v1/tenants/${a.slug}/audit`);
    expect(audit.status).toBe(200);
    expect(audit.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: 'token.issue',
          outcome: 'denied',
          status: 403,
          target: `/v1/tenants/${b.slug}/tokens`,
        }),
      ]),
    );
    const bAudit = await api.admin.get(`/v1/tenants/${b.slug}/audit`);
    expect(bAudit.body.items.every((entry: { tenantId: string }) => entry.tenantId === b.id)).toBe(true);
  });
});
