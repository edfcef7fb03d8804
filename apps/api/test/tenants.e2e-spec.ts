import {
  createProject,
  createTenant,
  issueToken,
  PASSWORD,
  personWithPassword,
  signIn,
  uniqueSlug,
} from '@cairn/testing';
import { TENANT_MIGRATION_LIST } from '@cairn/tenancy';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';

describe('platform tenant administration', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  const schemaExists = async (schema: string) => {
    const rows = await api.app
      .get(DataSource)
      .query<unknown[]>('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema]);
    return rows.length === 1;
  };

  it('creates a tenant with its own schema, migrated to the latest version', async () => {
    const slug = uniqueSlug('acme');
    const response = await api.admin.post('/v1/tenants', { slug, name: '  Acme   Corp ' });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      slug,
      name: 'Acme Corp',
      schema: expect.stringMatching(/^t_[0-9a-z]+$/),
      schemaVersion: TENANT_MIGRATION_LIST.length,
      createdAt: expect.any(String),
      suspendedAt: null,
    });
    expect(await schemaExists(response.body.schema)).toBe(true);
    expect((await api.admin.get(`/v1/tenants/${slug}`)).body).toEqual(response.body);
  });

  it('answers 409 for a duplicate slug', async () => {
    const tenant = await createTenant(api.admin);
    const again = await api.admin.post('/v1/tenants', { slug: tenant.slug, name: 'Again' });
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('tenant_exists');
    expect(again.body.correlationId).toEqual(expect.any(String));
  });

  it('lets exactly one of many concurrent creations with the same slug win', async () => {
    const slug = uniqueSlug('race');
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => api.admin.post('/v1/tenants', { slug, name: 'Race' })),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    const rows = await api.app
      .get(DataSource)
      .query<{ schema_name: string }[]>('SELECT schema_name FROM cairn.tenants WHERE slug = $1', [slug]);
    expect(rows).toHaveLength(1);
    // The losers' schemas were rolled back with their rows.
    const schemas = await api.app.get(DataSource).query<unknown[]>(
      `SELECT 1 FROM information_schema.schemata s WHERE s.schema_name LIKE 't\\_%'
         AND NOT EXISTS (SELECT 1 FROM cairn.tenants t WHERE t.schema_name = s.schema_name)`,
    );
    expect(schemas).toHaveLength(0);
  });

  it('lists live tenants with keyset pagination', async () => {
    for (let i = 0; i < 3; i += 1) await createTenant(api.admin);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { items: { slug: string }[]; nextCursor: string | null } } =
        await api.admin.get(`/v1/tenants?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.body.items.map((tenant) => tenant.slug));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    const all = await api.admin.get('/v1/tenants?limit=500');
    expect(all.body.items.map((tenant: { slug: string }) => tenant.slug)).toEqual(seen);
  });

  it('deletes a tenant: drops its schema, revokes its tokens, frees its slug', async () => {
    const tenant = await createTenant(api.admin);
    await createProject(api.admin, tenant.slug);
    const { token } = await issueToken(api.admin, tenant.slug, { role: 'admin' });
    expect((await api.client.as(token).get('/v1/whoami')).status).toBe(200);

    const deleted = await api.admin.delete(`/v1/tenants/${tenant.slug}`);
    expect(deleted.status).toBe(200);
    // The purge report: every table of the schema with the rows it held, and what was revoked.
    expect(deleted.body).toMatchObject({
      tenant: { id: tenant.id, slug: tenant.slug },
      schema: { name: tenant.schema, dropped: true },
      access: { tokensRevoked: 1, usersDisabled: expect.any(Number) },
    });
    const tables = Object.fromEntries(
      deleted.body.schema.tables.map((entry: { table: string; rows: number }) => [entry.table, entry.rows]),
    );
    expect(tables).toMatchObject({ projects: 1, memories: 0, audit_log: expect.any(Number) });
    expect(deleted.body.schema.rows).toBe(
      Object.values(tables).reduce((sum, rows) => (sum as number) + (rows as number), 0),
    );
    expect(await schemaExists(tenant.schema)).toBe(false);
    expect((await api.admin.get(`/v1/tenants/${tenant.slug}`)).status).toBe(404);
    const afterwards = await api.client.as(token).get('/v1/whoami');
    expect(afterwards.status).toBe(401);
    expect(afterwards.body.error.code).toBe('token_revoked');
    const revoked = await api.app
      .get(DataSource)
      .query<unknown[]>('SELECT 1 FROM cairn.session_tokens WHERE tenant_id = $1 AND revoked_at IS NULL', [tenant.id]);
    expect(revoked).toHaveLength(0);

    expect((await api.admin.delete(`/v1/tenants/${tenant.slug}`)).status).toBe(404);
    const recreated = await api.admin.post('/v1/tenants', { slug: tenant.slug, name: 'Second life' });
    expect(recreated.status).toBe(201);
    expect(recreated.body.id).not.toBe(tenant.id);
  });

  it('suspends a tenant: its tokens, sessions and sign-ins are refused with 403 until it is resumed', async () => {
    const tenant = await createTenant(api.admin);
    const { token } = await issueToken(api.admin, tenant.slug, { role: 'admin' });
    const agent = api.client.as(token);
    const person = await personWithPassword(api.admin, api.client, 'member', tenant.slug);
    const browser = await signIn(api.client, { tenant: tenant.slug, email: person.user.email });
    expect((await agent.get('/v1/whoami')).status).toBe(200);

    const suspended = await api.admin.post(`/v1/tenants/${tenant.slug}/suspend`);
    expect(suspended.status).toBe(200);
    expect(suspended.body).toMatchObject({ slug: tenant.slug, suspendedAt: expect.any(String) });
    for (const refused of [await agent.get('/v1/whoami'), await browser.get('/v1/session')]) {
      expect({ status: refused.status, code: refused.body.error.code }).toEqual({
        status: 403,
        code: 'tenant_suspended',
      });
    }
    const login = await api.client.post('/v1/session/login', {
      tenant: tenant.slug,
      email: person.user.email,
      password: PASSWORD,
    });
    expect({ status: login.status, code: login.body.error.code }).toEqual({ status: 403, code: 'tenant_suspended' });
    expect((await api.admin.post('/v1/auth/introspect', { token })).body).toEqual({ active: false });
    // Suspending again keeps the first moment; the platform still reads and manages the tenant.
    const again = await api.admin.post(`/v1/tenants/${tenant.slug}/suspend`);
    expect(again.body.suspendedAt).toBe(suspended.body.suspendedAt);
    expect((await api.admin.get(`/v1/tenants/${tenant.slug}/audit/verify`)).body.valid).toBe(true);
    const listed = await api.admin.get('/v1/tenants?limit=500');
    expect(listed.body.items.find((t: { slug: string }) => t.slug === tenant.slug).suspendedAt).toBe(
      suspended.body.suspendedAt,
    );

    const resumed = await api.admin.post(`/v1/tenants/${tenant.slug}/resume`);
    expect(resumed.body).toMatchObject({ slug: tenant.slug, suspendedAt: null });
    expect((await agent.get('/v1/whoami')).status).toBe(200);
    expect((await browser.get('/v1/session')).status).toBe(200);
    const audit = await api.admin.get('/v1/audit?action=tenant.suspend&limit=10');
    expect(audit.body.items[0]).toMatchObject({ target: `/v1/tenants/${tenant.slug}/suspend`, outcome: 'success' });
    expect((await api.admin.post('/v1/tenants/no-such-tenant/suspend')).status).toBe(404);
    expect((await agent.post(`/v1/tenants/${tenant.slug}/suspend`)).status).toBe(403);
  });

  it('records every admin action in the platform audit log', async () => {
    const slug = uniqueSlug('audit');
    const created = await api.admin.post('/v1/tenants', { slug, name: 'Audited' });
    await api.admin.post('/v1/tenants', { slug, name: 'Duplicate' });
    await api.admin.delete(`/v1/tenants/${slug}`);
    const audit = await api.admin.get('/v1/audit?limit=50');
    expect(audit.status).toBe(200);
    const mine = audit.body.items.filter((entry: { target: string }) => entry.target?.startsWith('/v1/tenants'));
    const create = mine.find(
      (entry: { action: string; outcome: string; requestId: string }) =>
        entry.action === 'tenant.create' && entry.requestId === created.headers['x-request-id'],
    );
    expect(create).toMatchObject({
      actor: 'platform-admin',
      outcome: 'success',
      status: 201,
      tenantId: created.body.id,
    });
    expect(mine).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: 'tenant.create',
          outcome: 'failure',
          status: 409,
          details: { code: 'tenant_exists' },
        }),
        expect.objectContaining({
          action: 'tenant.delete',
          outcome: 'success',
          status: 200,
          target: `/v1/tenants/${slug}`,
        }),
      ]),
    );
  });
});
