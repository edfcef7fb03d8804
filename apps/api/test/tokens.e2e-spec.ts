import { createProject, createTenant, createUser, issueToken, type TenantFixture } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';

describe('session tokens', () => {
  let api: ApiHarness;
  let tenant: TenantFixture;
  let project: { slug: string };

  beforeAll(async () => {
    api = await startApi({ TOKEN_MAX_TTL_SECONDS: '86400', TOKEN_DEFAULT_TTL_SECONDS: '3600' });
    tenant = await createTenant(api.admin);
    project = await createProject(api.admin, tenant.slug);
  });
  afterAll(() => api.close());

  const tokensUrl = () => `/v1/tenants/${tenant.slug}/tokens`;

  it('issues a token once, stores only its hash, and lists it without the secret', async () => {
    const user = await createUser(api.admin, tenant.slug, 'member');
    const issued = await api.admin.post(tokensUrl(), {
      userId: user.id,
      agentId: 'claude-code:alice',
      role: 'agent',
      projects: [project.slug],
      ttlSeconds: 600,
      label: 'laptop',
    });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({
      tenant: tenant.slug,
      userId: user.id,
      agentId: 'claude-code:alice',
      role: 'agent',
      projects: [project.slug],
      label: 'laptop',
      createdBy: 'platform-admin',
      token: expect.stringMatching(/^cairn_st_[A-Za-z0-9_-]{43}$/),
    });
    const ttl = Date.parse(issued.body.expiresAt) - Date.parse(issued.body.createdAt);
    expect(Math.abs(ttl - 600_000)).toBeLessThan(5_000);

    const stored = await api.app
      .get(DataSource)
      .query<{ hash: string }[]>(`SELECT encode(token_hash, 'hex') AS hash FROM cairn.session_tokens WHERE id = $1`, [
        issued.body.id,
      ]);
    const { createHash } = await import('node:crypto');
    expect(stored[0]?.hash).toBe(createHash('sha256').update(issued.body.token).digest('hex'));

    const list = await api.admin.get(tokensUrl());
    expect(list.status).toBe(200);
    const listed = list.body.items.find((item: { id: string }) => item.id === issued.body.id);
    expect(listed).toMatchObject({ status: 'active', hint: expect.stringMatching(/^cairn_st_/), revokedAt: null });
    expect(JSON.stringify(list.body)).not.toContain(issued.body.token);
    expect(JSON.stringify(list.body)).not.toContain(issued.body.token.slice(15));
  });

  it('records when a token was last used', async () => {
    const { token, id } = await issueToken(api.admin, tenant.slug, { role: 'reader' });
    const lastUsed = async () =>
      (await api.admin.get(tokensUrl())).body.items.find((item: { id: string }) => item.id === id).lastUsedAt;
    expect(await lastUsed()).toBeNull();
    await api.client.as(token).get('/v1/whoami');
    for (let attempt = 0; attempt < 50 && (await lastUsed()) === null; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(Date.parse(await lastUsed())).toBeGreaterThan(Date.now() - 60_000);
  });

  it('uses the configured default lifetime and refuses one above the maximum', async () => {
    const issued = await issueToken(api.admin, tenant.slug, { role: 'reader' });
    const ttl = Date.parse(issued.expiresAt) - Date.now();
    expect(ttl).toBeGreaterThan(3_500_000);
    expect(ttl).toBeLessThanOrEqual(3_600_000);
    const tooLong = await api.admin.post(tokensUrl(), { role: 'reader', projects: '*', ttlSeconds: 86_401 });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error.code).toBe('ttl_too_long');
  });

  it('answers whoami with the token scope and permissions', async () => {
    const { token, id } = await issueToken(api.admin, tenant.slug, {
      role: 'agent',
      agentId: 'cursor:bob',
      projects: [project.slug],
    });
    const whoami = await api.client.as(token).get('/v1/whoami');
    expect(whoami.status).toBe(200);
    expect(whoami.body).toMatchObject({
      kind: 'session',
      tenant: { slug: tenant.slug },
      tokenId: id,
      role: 'agent',
      agentId: 'cursor:bob',
      projects: [project.slug],
      permissions: expect.arrayContaining(['auth.whoami']),
    });
    expect((await api.admin.get('/v1/whoami')).body).toEqual({ kind: 'platform', permissions: ['*'] });
  });

  it('refuses a role above the user role, a disabled user, an unknown user and unknown projects', async () => {
    const member = await createUser(api.admin, tenant.slug, 'member');
    const cases: [unknown, string][] = [
      [{ userId: member.id, role: 'admin', projects: '*' }, 'role_exceeds_user'],
      [{ userId: '00000000-0000-4000-8000-000000000000', role: 'reader', projects: '*' }, 'unknown_user'],
      [{ role: 'reader', projects: ['no-such-project'] }, 'unknown_project'],
    ];
    for (const [body, code] of cases) {
      const response = await api.admin.post(tokensUrl(), body);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe(code);
    }
    await api.admin.patch(`/v1/tenants/${tenant.slug}/users/${member.id}`, { disabled: true });
    const disabled = await api.admin.post(tokensUrl(), { userId: member.id, role: 'reader', projects: '*' });
    expect(disabled.body.error.code).toBe('user_disabled');
  });

  it('records the MCP toolsets and default project a token enables, and refuses ones outside its scope', async () => {
    const other = await createProject(api.admin, tenant.slug);
    const issued = await api.admin.post(tokensUrl(), {
      role: 'agent',
      projects: [project.slug, other.slug],
      defaultProject: other.slug,
      toolsets: ['core', 'harness'],
    });
    expect(issued.status).toBe(201);
    expect(issued.body).toMatchObject({ defaultProject: other.slug, toolsets: ['core', 'harness'] });
    // The default reported is the one the gateway uses: without one set, a single-project
    // token defaults to its project, and a wider one has none.
    const plain = await issueToken(api.admin, tenant.slug, { role: 'agent', projects: [project.slug] });
    expect(plain).toMatchObject({ defaultProject: project.slug });
    const wide = await issueToken(api.admin, tenant.slug, { role: 'agent', projects: [project.slug, other.slug] });
    expect(wide).toMatchObject({ defaultProject: null });
    const listed = await api.admin.get(`${tokensUrl()}?limit=100`);
    expect(listed.body.items.find((item: { id: string }) => item.id === plain.id)).toMatchObject({
      toolsets: null,
      defaultProject: project.slug,
    });
    expect(listed.body.items.find((item: { id: string }) => item.id === wide.id)).toMatchObject({
      defaultProject: null,
    });
    expect((await api.client.as(plain.token).get('/v1/whoami')).body).toMatchObject({ defaultProject: project.slug });
    expect((await api.admin.post('/v1/auth/introspect', { token: issued.body.token })).body).toMatchObject({
      defaultProject: other.slug,
    });
    const refused: [unknown, number, string][] = [
      [{ role: 'agent', projects: [project.slug], defaultProject: other.slug }, 400, 'default_project_out_of_scope'],
      [{ role: 'agent', projects: '*', defaultProject: 'no-such-project' }, 400, 'unknown_project'],
      [{ role: 'agent', projects: '*', toolsets: ['everything'] }, 400, 'validation_failed'],
      [{ role: 'agent', projects: '*', toolsets: [] }, 400, 'validation_failed'],
    ];
    for (const [body, status, code] of refused) {
      const response = await api.admin.post(tokensUrl(), body);
      expect({ status: response.status, code: response.body.error?.code }).toEqual({ status, code });
    }
  });

  it('lets an admin token scoped to some projects issue and revoke tokens only within them', async () => {
    const other = await createProject(api.admin, tenant.slug);
    const scoped = api.client.as(
      (await issueToken(api.admin, tenant.slug, { role: 'admin', projects: [project.slug] })).token,
    );
    for (const projects of ['*', [other.slug], [project.slug, other.slug]]) {
      const widened = await scoped.post(tokensUrl(), { role: 'reader', projects });
      expect(widened.status).toBe(403);
      expect(widened.body.error.code).toBe('project_forbidden');
    }
    expect((await scoped.post(tokensUrl(), { role: 'reader', projects: [project.slug] })).status).toBe(201);
    const elsewhere = await issueToken(api.admin, tenant.slug, { role: 'reader', projects: [other.slug] });
    const everywhere = await issueToken(api.admin, tenant.slug, { role: 'reader', projects: '*' });
    const within = await issueToken(api.admin, tenant.slug, { role: 'reader', projects: [project.slug] });
    expect((await scoped.delete(`${tokensUrl()}/${elsewhere.id}`)).status).toBe(403);
    expect((await scoped.delete(`${tokensUrl()}/${everywhere.id}`)).status).toBe(403);
    expect((await api.client.as(elsewhere.token).get('/v1/whoami')).status).toBe(200);
    expect((await scoped.delete(`${tokensUrl()}/${within.id}`)).status).toBe(204);
    expect((await api.client.as(within.token).get('/v1/whoami')).status).toBe(401);
  });

  it('revokes at once, and says why a token is refused', async () => {
    const { token, id } = await issueToken(api.admin, tenant.slug, { role: 'reader' });
    expect((await api.client.as(token).get('/v1/whoami')).status).toBe(200);
    expect((await api.admin.delete(`${tokensUrl()}/${id}`)).status).toBe(204);
    const refused = await api.client.as(token).get('/v1/whoami');
    expect(refused.status).toBe(401);
    expect(refused.body.error).toEqual({ code: 'token_revoked', message: 'Token has been revoked' });
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="cairn", error="invalid_token"');
    expect((await api.admin.delete(`${tokensUrl()}/${id}`)).status).toBe(204);
    expect((await api.admin.delete(`${tokensUrl()}/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const listed = await api.admin.get(tokensUrl());
    expect(listed.body.items.find((item: { id: string }) => item.id === id).status).toBe('revoked');
  });

  it('refuses an expired token', async () => {
    const { token, id } = await issueToken(api.admin, tenant.slug, { role: 'reader', ttlSeconds: 60 });
    await api.app
      .get(DataSource)
      .query(`UPDATE cairn.session_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [id]);
    const refused = await api.client.as(token).get('/v1/whoami');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('token_expired');
  });

  it.each([
    ['no header', undefined, 'unauthenticated'],
    ['a malformed session token', 'cairn_st_tooshort', 'invalid_token'],
    ['an unknown session token', `cairn_st_${'A'.repeat(43)}`, 'invalid_token'],
    ['a wrong admin token', 'x'.repeat(40), 'invalid_token'],
  ])('answers 401 for %s', async (_name, token, code) => {
    const response = await api.client.as(token).get('/v1/whoami');
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe(code);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer realm="cairn"/);
  });

  it('answers 401 for a non-bearer scheme and refuses tokens in the query string', async () => {
    const basic = await api.client.request('GET', '/v1/whoami', undefined, { authorization: 'Basic dXNlcjpwYXNz' });
    expect(basic.status).toBe(401);
    const { token } = await issueToken(api.admin, tenant.slug, { role: 'reader' });
    const inQuery = await api.client.as(token).get(`/v1/whoami?access_token=${token}`);
    expect(inQuery.status).toBe(400);
    expect(inQuery.body.error.code).toBe('token_in_query');
  });

  it('disabling a user cuts off its tokens at once; re-enabling restores them', async () => {
    const user = await createUser(api.admin, tenant.slug, 'member');
    const { token } = await issueToken(api.admin, tenant.slug, { userId: user.id, role: 'member' });
    const usersUrl = `/v1/tenants/${tenant.slug}/users/${user.id}`;
    expect((await api.admin.patch(usersUrl, { disabled: true })).body.disabled).toBe(true);
    const refused = await api.client.as(token).get('/v1/whoami');
    expect(refused.status).toBe(401);
    expect(refused.body.error.code).toBe('user_disabled');
    await api.admin.patch(usersUrl, { disabled: false });
    expect((await api.client.as(token).get('/v1/whoami')).status).toBe(200);
  });

  it('demoting a user caps the role of its existing tokens', async () => {
    const user = await createUser(api.admin, tenant.slug, 'admin');
    const { token } = await issueToken(api.admin, tenant.slug, { userId: user.id, role: 'admin' });
    const client = api.client.as(token);
    expect((await client.get(`/v1/tenants/${tenant.slug}/users`)).status).toBe(200);
    await api.admin.patch(`/v1/tenants/${tenant.slug}/users/${user.id}`, { role: 'member' });
    const denied = await client.get(`/v1/tenants/${tenant.slug}/users`);
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('insufficient_role');
    expect((await client.get('/v1/whoami')).body.role).toBe('member');
  });

  describe('introspection (RFC 7662)', () => {
    it('describes an active token to the platform admin and a tenant admin', async () => {
      const { token, id } = await issueToken(api.admin, tenant.slug, {
        role: 'agent',
        agentId: 'codex:carol',
        projects: [project.slug],
      });
      const { token: adminToken } = await issueToken(api.admin, tenant.slug, { role: 'admin' });
      for (const caller of [api.admin, api.client.as(adminToken)]) {
        const response = await caller.post('/v1/auth/introspect', { token });
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({
          active: true,
          tenant: tenant.slug,
          role: 'agent',
          agentId: 'codex:carol',
          projects: [project.slug],
          token_type: 'session',
          exp: expect.any(Number),
          iat: expect.any(Number),
        });
      }
      await api.admin.delete(`${tokensUrl()}/${id}`);
      expect((await api.admin.post('/v1/auth/introspect', { token })).body).toEqual({ active: false });
    });

    it('answers only {active:false} for unknown, malformed and admin tokens', async () => {
      for (const token of [`cairn_st_${'B'.repeat(43)}`, 'garbage', 'x'.repeat(40)]) {
        expect((await api.admin.post('/v1/auth/introspect', { token })).body).toEqual({ active: false });
      }
    });

    it('is not open to non-admin tokens', async () => {
      const { token } = await issueToken(api.admin, tenant.slug, { role: 'member' });
      const response = await api.client.as(token).post('/v1/auth/introspect', { token });
      expect(response.status).toBe(403);
    });
  });
});
