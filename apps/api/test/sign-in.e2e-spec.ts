import {
  cookieSet,
  createTenant,
  createUser,
  issueToken,
  PASSWORD,
  passwordLink,
  personWithPassword,
  SessionBrowser as Browser,
  signIn,
  totpCode,
  uniqueSlug,
} from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';

/** Local sign-in and browser sessions (docs/sign-in.md) over real HTTP, PostgreSQL and Redis. */
describe('sign-in and browser sessions', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi();
  });
  afterAll(() => api.close());

  /** Each test signs in from an address of its own, so the per-address count of one never spills into another. */
  let address = 0;
  const fromNewAddress = () => ({ 'x-forwarded-for': `198.51.100.${++address}` });

  it('lists the sign-in options without credentials', async () => {
    const response = await api.client.get('/v1/session/providers');
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ local: true, oidc: [] });
  });

  it('sets a first password by link, signs in with it and describes the session', async () => {
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'member');
    const login = await api.client.request(
      'POST',
      '/v1/session/login',
      { tenant, email: user.email.toUpperCase(), password: PASSWORD },
      fromNewAddress(),
    );
    expect(login.status).toBe(200);
    const setCookie = String(login.headers['set-cookie']);
    expect(setCookie).toMatch(
      /^__Host-cairn_session=[A-Za-z0-9_-]{43}; Max-Age=43200; Path=\/; HttpOnly; SameSite=Lax; Secure$/,
    );
    expect(login.body).toMatchObject({
      kind: 'tenant',
      via: 'browser',
      account: { email: user.email, name: 'Test User', secondFactor: false },
      tenant: { slug: tenant },
      role: 'member',
      mustCreateAccount: false,
      csrfToken: expect.any(String),
    });
    const browser = new Browser(api.client, cookieSet(login) as string, login.body.csrfToken);
    const session = await browser.get('/v1/session');
    expect(session.status).toBe(200);
    expect(session.body).toMatchObject({ via: 'browser', role: 'member', csrfToken: login.body.csrfToken });
    expect(Date.parse(session.body.idleExpiresAt)).toBeLessThanOrEqual(Date.parse(session.body.expiresAt));
    // The session acts through an ordinary token, listed with the tenant's tokens.
    const tokens = await api.admin.get(`/v1/tenants/${tenant}/tokens`);
    expect(tokens.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ label: 'console session', userId: user.id, projects: '*' })]),
    );
  });

  it('answers a wrong password, an unknown email and an unknown tenant alike', async () => {
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'member');
    const attempts = [
      { tenant, email: user.email, password: 'wrong password!' },
      { tenant, email: 'nobody@example.com', password: PASSWORD },
      { tenant: uniqueSlug('none'), email: user.email, password: PASSWORD },
      { email: user.email, password: PASSWORD },
    ];
    for (const body of attempts) {
      const response = await api.client.request('POST', '/v1/session/login', body, fromNewAddress());
      expect({ status: response.status, code: response.body.error.code }).toEqual({
        status: 401,
        code: 'invalid_credentials',
      });
      expect(response.body.error.message).toBe('Email or password is wrong');
      expect(cookieSet(response)).toBeUndefined();
    }
  });

  it('throttles failures per account, then per address, with Retry-After', async () => {
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'member');
    for (let i = 0; i < 5; i += 1) {
      const wrong = await api.client.request(
        'POST',
        '/v1/session/login',
        { tenant, email: user.email, password: 'nope' },
        fromNewAddress(),
      );
      expect(wrong.status).toBe(401);
    }
    // Even the right password, from yet another address: the account's count is spent.
    const blocked = await api.client.request(
      'POST',
      '/v1/session/login',
      { tenant, email: user.email, password: PASSWORD },
      fromNewAddress(),
    );
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);

    const ip = fromNewAddress();
    for (let i = 0; i < 30; i += 1) {
      const wrong = await api.client.request(
        'POST',
        '/v1/session/login',
        { tenant, email: `x${i}@example.com`, password: 'nope' },
        ip,
      );
      expect(wrong.status).toBe(401);
    }
    const other = await personWithPassword(api.admin, api.client, 'member', tenant);
    const fromThere = await api.client.request(
      'POST',
      '/v1/session/login',
      { tenant, email: other.user.email, password: PASSWORD },
      ip,
    );
    expect(fromThere.status).toBe(429);
    expect(fromThere.body.error.details).toMatchObject({ scope: 'address' });
    await expect(signIn(api.client, { tenant, email: other.user.email }, fromNewAddress())).resolves.toBeInstanceOf(
      Browser,
    );
  });

  it('enrols, requires, refuses and disables a second factor', async () => {
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'member');
    const browser = await signIn(api.client, { tenant, email: user.email }, fromNewAddress());
    const enrol = await browser.post('/v1/session/totp');
    expect(enrol.status).toBe(200);
    expect(enrol.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Cairn:/);
    expect((await browser.post('/v1/session/totp/confirm', { code: '12345' })).status).toBe(400);
    expect((await browser.post('/v1/session/totp/confirm', { code: totpCode(enrol.body.secret, -1) })).status).toBe(
      204,
    );
    expect((await browser.get('/v1/session')).body.account.secondFactor).toBe(true);

    const noCode = await api.client.request(
      'POST',
      '/v1/session/login',
      { tenant, email: user.email, password: PASSWORD },
      fromNewAddress(),
    );
    expect({ status: noCode.status, code: noCode.body.error.code }).toEqual({ status: 401, code: 'totp_required' });
    const wrongCode = await api.client.request(
      'POST',
      '/v1/session/login',
      { tenant, email: user.email, password: PASSWORD, totp: totpCode(enrol.body.secret, -1) },
      fromNewAddress(),
    );
    // That code was spent confirming the enrolment.
    expect({ status: wrongCode.status, code: wrongCode.body.error.code }).toEqual({
      status: 401,
      code: 'totp_invalid',
    });
    const withCode = await signIn(
      api.client,
      { tenant, email: user.email, totp: totpCode(enrol.body.secret) },
      fromNewAddress(),
    );
    expect((await withCode.delete('/v1/session/totp', { code: '000000' })).status).toBe(400);
    expect((await withCode.delete('/v1/session/totp', { code: totpCode(enrol.body.secret, 1) })).status).toBe(204);
    expect((await withCode.get('/v1/session')).body.account.secondFactor).toBe(false);
    await expect(signIn(api.client, { tenant, email: user.email }, fromNewAddress())).resolves.toBeInstanceOf(Browser);
  });

  it("reaches tenant routes with the user's role and no more, and never another tenant's", async () => {
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'member');
    const other = await createTenant(api.admin, uniqueSlug('other'));
    const browser = await signIn(api.client, { tenant, email: user.email }, fromNewAddress());
    expect((await browser.get(`/v1/tenants/${tenant}/projects`)).status).toBe(200);
    const admin = await browser.get(`/v1/tenants/${tenant}/users`);
    expect({ status: admin.status, code: admin.body.error.code }).toEqual({ status: 403, code: 'insufficient_role' });
    const elsewhere = await browser.get(`/v1/tenants/${other.slug}/projects`);
    expect({ status: elsewhere.status, code: elsewhere.body.error.code }).toEqual({
      status: 403,
      code: 'wrong_tenant',
    });
    expect((await browser.get('/v1/tenants')).status).toBe(403);
  });

  it('mints agent tokens within the role of the person, usable as bearer tokens', async () => {
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'admin');
    const member = await createUser(api.admin, tenant, 'member');
    const adminBrowser = await signIn(api.client, { tenant, email: user.email }, fromNewAddress());
    const link = await adminBrowser.post(`/v1/tenants/${tenant}/users/${member.id}/password-link`);
    expect(link.status).toBe(201);
    const set = await api.client.post('/v1/session/password', {
      token: link.body.url.split('#token=')[1],
      password: PASSWORD,
    });
    expect(set.status).toBe(204);
    const memberBrowser = await signIn(api.client, { tenant, email: member.email }, fromNewAddress());
    // A member may not issue tokens at all (tenant.tokens.manage is an admin's): role caps hold.
    const denied = await memberBrowser.post(`/v1/tenants/${tenant}/tokens`, {
      userId: member.id,
      role: 'admin',
      projects: '*',
    });
    expect(denied.status).toBe(403);
    // The admin's minted token may not exceed the member's role, and works as a bearer token.
    const tooHigh = await adminBrowser.post(`/v1/tenants/${tenant}/tokens`, {
      userId: member.id,
      role: 'admin',
      projects: '*',
    });
    expect({ status: tooHigh.status, code: tooHigh.body.error.code }).toEqual({
      status: 400,
      code: 'role_exceeds_user',
    });
    const minted = await adminBrowser.post(`/v1/tenants/${tenant}/tokens`, {
      userId: member.id,
      role: 'member',
      projects: '*',
      agentId: 'claude-code',
    });
    expect(minted.status).toBe(201);
    const whoami = await api.client.as(minted.body.token).get('/v1/whoami');
    expect(whoami.body).toMatchObject({ kind: 'session', role: 'member', agentId: 'claude-code' });
  });

  it('refuses a state change without the right CSRF token; a bearer header wins over the cookie', async () => {
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'admin');
    const browser = await signIn(api.client, { tenant, email: user.email }, fromNewAddress());
    const body = { slug: uniqueSlug('p'), name: 'Project' };
    const without = await browser.withoutCsrf().post(`/v1/tenants/${tenant}/projects`, body);
    expect({ status: without.status, code: without.body.error.code }).toEqual({ status: 403, code: 'csrf_failed' });
    const wrong = await browser.request('POST', `/v1/tenants/${tenant}/projects`, body, {
      'x-csrf-token': 'x'.repeat(43),
    });
    expect(wrong.status).toBe(403);
    expect((await browser.post(`/v1/tenants/${tenant}/projects`, body)).status).toBe(201);

    const reader = await createUser(api.admin, tenant, 'reader');
    const token = await issueToken(api.admin, tenant, { role: 'reader', projects: '*', userId: reader.id });
    const both = await browser
      .withoutCsrf()
      .request('GET', '/v1/session', undefined, { authorization: `Bearer ${token.token}` });
    expect(both.body).toMatchObject({ via: 'token', role: 'reader' });
    expect(both.body.csrfToken).toBeUndefined();
    const bearerWrite = await browser
      .withoutCsrf()
      .request(
        'POST',
        `/v1/tenants/${tenant}/projects`,
        { slug: uniqueSlug('p'), name: 'P' },
        { authorization: `Bearer ${token.token}` },
      );
    expect(bearerWrite.body.error.code).toBe('insufficient_role');
  });

  it('signs out: the cookie stops working and its token is revoked', async () => {
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'member');
    const browser = await signIn(api.client, { tenant, email: user.email }, fromNewAddress());
    const logout = await browser.post('/v1/session/logout');
    expect(logout.status).toBe(204);
    expect(cookieSet(logout)).toBe('');
    const after = await browser.get('/v1/session');
    expect({ status: after.status, code: after.body.error.code }).toEqual({ status: 401, code: 'session_expired' });
    expect(cookieSet(after)).toBe('');
    const tokens = await api.admin.get(`/v1/tenants/${tenant}/tokens`);
    const console = tokens.body.items.filter((token: { userId: string }) => token.userId === user.id);
    expect(console.map((token: { status: string }) => token.status)).toEqual(['revoked']);
  });

  it('ends the session when its token is revoked through the token API', async () => {
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'member');
    const browser = await signIn(api.client, { tenant, email: user.email }, fromNewAddress());
    const tokens = await api.admin.get(`/v1/tenants/${tenant}/tokens`);
    const id = tokens.body.items.find((token: { userId: string }) => token.userId === user.id).id;
    expect((await api.admin.delete(`/v1/tenants/${tenant}/tokens/${id}`)).status).toBe(204);
    const after = await browser.get('/v1/session');
    expect({ status: after.status, code: after.body.error.code }).toEqual({ status: 401, code: 'token_revoked' });
  });

  it('signs out everywhere, and lists and ends single sessions', async () => {
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'member');
    const first = await signIn(api.client, { tenant, email: user.email }, fromNewAddress());
    const second = await signIn(api.client, { tenant, email: user.email }, fromNewAddress());
    const third = await signIn(api.client, { tenant, email: user.email }, fromNewAddress());
    const list = await first.get('/v1/session/list');
    expect(list.body.items).toHaveLength(3);
    expect(list.body.items.filter((item: { current: boolean }) => item.current)).toHaveLength(1);
    const thirdId = (await third.get('/v1/session/list')).body.items.find(
      (item: { current: boolean }) => item.current,
    ).id;
    expect((await first.delete(`/v1/session/list/${thirdId}`)).status).toBe(204);
    expect((await first.delete(`/v1/session/list/${thirdId}`)).status).toBe(404);
    expect((await third.get('/v1/session')).status).toBe(401);
    expect((await second.post('/v1/session/logout-everywhere')).status).toBe(204);
    expect((await first.get('/v1/session')).status).toBe(401);
    expect((await second.get('/v1/session')).status).toBe(401);
  });

  it('makes a password link single-use, and a newer link voids the older one', async () => {
    const tenant = (await createTenant(api.admin, uniqueSlug('link'))).slug;
    const user = await createUser(api.admin, tenant, 'member');
    const older = await passwordLink(api.admin, tenant, user.id);
    const newer = await passwordLink(api.admin, tenant, user.id);
    const stale = await api.client.post('/v1/session/password', { token: older, password: PASSWORD });
    expect({ status: stale.status, code: stale.body.error.code }).toEqual({ status: 400, code: 'link_invalid' });
    expect((await api.client.post('/v1/session/password', { token: newer, password: PASSWORD })).status).toBe(204);
    expect(
      (await api.client.post('/v1/session/password', { token: newer, password: 'another long password' })).status,
    ).toBe(400);
    const short = await api.client.post('/v1/session/password', { token: newer, password: 'short' });
    expect({ status: short.status, code: short.body.error.code }).toEqual({ status: 400, code: 'validation_failed' });
  });

  it('keeps a disabled user out, and stops their live session', async () => {
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'member');
    const browser = await signIn(api.client, { tenant, email: user.email }, fromNewAddress());
    expect((await api.admin.patch(`/v1/tenants/${tenant}/users/${user.id}`, { disabled: true })).status).toBe(200);
    const live = await browser.get('/v1/session');
    expect({ status: live.status, code: live.body.error.code }).toEqual({ status: 401, code: 'user_disabled' });
    const again = await api.client.request(
      'POST',
      '/v1/session/login',
      { tenant, email: user.email, password: PASSWORD },
      fromNewAddress(),
    );
    expect({ status: again.status, code: again.body.error.code }).toEqual({ status: 403, code: 'account_disabled' });
  });

  it('runs the bootstrap flow: admin token, first platform account, sign-in with it', async () => {
    const wrong = await api.client.post('/v1/session/bootstrap', { token: 'not-the-admin-token-at-all-really' });
    expect({ status: wrong.status, code: wrong.body.error.code }).toEqual({ status: 401, code: 'invalid_credentials' });
    const { TEST_ADMIN_TOKEN } = await import('@cairn/testing');
    const started = await api.client.post('/v1/session/bootstrap', { token: TEST_ADMIN_TOKEN });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ kind: 'platform', mustCreateAccount: true, notice: expect.any(String) });
    const bootstrap = new Browser(api.client, cookieSet(started) as string, started.body.csrfToken);
    expect((await bootstrap.get('/v1/session')).status).toBe(200);
    const restricted = await bootstrap.get('/v1/tenants');
    expect({ status: restricted.status, code: restricted.body.error.code }).toEqual({
      status: 403,
      code: 'account_required',
    });

    const email = `${uniqueSlug('ops')}@example.com`;
    const created = await bootstrap.post('/v1/platform/accounts', { email, name: 'Ops', password: PASSWORD });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ account: { email, name: 'Ops' }, signedOut: true });
    expect((await bootstrap.get('/v1/session')).status).toBe(401);

    const operator = await signIn(api.client, { email }, fromNewAddress());
    const view = await operator.get('/v1/session');
    expect(view.body).toMatchObject({
      kind: 'platform',
      role: 'platform',
      mustCreateAccount: false,
      account: { email },
    });
    const slug = uniqueSlug('ops');
    expect((await operator.post('/v1/tenants', { slug, name: 'Made by ops' })).status).toBe(201);
    expect((await operator.get('/v1/tenants')).status).toBe(200);
    const audit = await api.admin.get('/v1/audit?limit=50');
    expect(JSON.stringify(audit.body)).toContain(`platform-account:${created.body.account.id}`);
    const duplicate = await api.admin.post('/v1/platform/accounts', { email, name: 'Again', password: PASSWORD });
    expect({ status: duplicate.status, code: duplicate.body.error.code }).toEqual({
      status: 409,
      code: 'account_exists',
    });
  });

  it('answers malformed and oversized bodies with clear 400s', async () => {
    const cases: [string, unknown][] = [
      ['/v1/session/login', { email: 'a@example.com' }],
      ['/v1/session/login', { email: 'not-an-email', password: 'x' }],
      ['/v1/session/login', { email: 'a@example.com', password: 'x'.repeat(257) }],
      ['/v1/session/login', { email: 'a@example.com', password: 'x', totp: 'abcdef' }],
      ['/v1/session/login', { email: 'a@example.com', password: 'x', extra: true }],
      ['/v1/session/login', { tenant: 'Not A Slug', email: 'a@example.com', password: 'x' }],
      ['/v1/session/password', { token: 'x', password: 'y'.repeat(300) }],
      ['/v1/session/bootstrap', {}],
    ];
    for (const [url, body] of cases) {
      const response = await api.client.post(url, body);
      expect({ url, body, status: response.status, code: response.body.error?.code }).toEqual({
        url,
        body,
        status: 400,
        code: 'validation_failed',
      });
    }
    const notJson = await api.client.request('POST', '/v1/session/login', 'email=a', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(notJson.status).toBe(415);
  });

  it('does not take a cookie from a request that is not a browser session (unknown cookie)', async () => {
    const forged = new Browser(api.client, 'A'.repeat(43), 'whatever');
    const response = await forged.get('/v1/session');
    expect({ status: response.status, code: response.body.error.code }).toEqual({
      status: 401,
      code: 'session_expired',
    });
    const noCookie = await api.client.get('/v1/session');
    expect({ status: noCookie.status, code: noCookie.body.error.code }).toEqual({
      status: 401,
      code: 'unauthenticated',
    });
  });
});

describe('browser session timeouts', () => {
  let api: ApiHarness;
  beforeAll(async () => {
    api = await startApi({
      SESSION_IDLE_TIMEOUT_SECONDS: '1',
      SESSION_ABSOLUTE_TIMEOUT_SECONDS: '3',
      SESSION_COOKIE_SECURE: 'false',
    });
  });
  afterAll(() => api.close());
  const sleep = (ms: number) => new Promise((wake) => setTimeout(wake, ms));

  it('names the cookie without __Host- and Secure when SESSION_COOKIE_SECURE=false', async () => {
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'member');
    const login = await api.client.post('/v1/session/login', { tenant, email: user.email, password: PASSWORD });
    expect(String(login.headers['set-cookie'])).toMatch(
      /^cairn_session=[^;]+; Max-Age=3; Path=\/; HttpOnly; SameSite=Lax$/,
    );
  });

  it('ends a session left idle past the idle timeout', async () => {
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'member');
    const browser = await signIn(api.client, { tenant, email: user.email }, {}, 'cairn_session');
    expect((await browser.get('/v1/session')).status).toBe(200);
    await sleep(1_300);
    expect((await browser.get('/v1/session')).status).toBe(401);
  });

  it('ends an active session at the absolute timeout', async () => {
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'member');
    const browser = await signIn(api.client, { tenant, email: user.email }, {}, 'cairn_session');
    const started = Date.now();
    while (Date.now() - started < 2_400) {
      expect((await browser.get('/v1/session')).status).toBe(200);
      await sleep(500);
    }
    await sleep(900);
    expect((await browser.get('/v1/session')).status).toBe(401);
  });
});
