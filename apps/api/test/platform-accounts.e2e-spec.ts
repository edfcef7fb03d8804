import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  cookieSet,
  createTestHttpApp,
  issueToken,
  PASSWORD,
  personWithPassword,
  SessionBrowser as Browser,
  signIn,
  TestClient,
  totpCode,
  uniqueSlug,
} from '@cairn/testing';
import { DataSource } from 'typeorm';
import { ApiModule } from '../src/api.module';
import { type ApiHarness, startApi } from './api-harness';

/**
 * Platform-operator accounts (docs/sign-in.md): their second factor, sealed under the platform's
 * own data key, and their management by operators (list, disable, enable, password link), over
 * real HTTP, PostgreSQL and Redis, with a second api replica on the same database.
 */
describe('platform-operator accounts', () => {
  let api: ApiHarness;
  let replica: NestFastifyApplication;
  let onReplica: TestClient;
  let sql: <T = unknown>(query: string, params?: unknown[]) => Promise<T[]>;

  beforeAll(async () => {
    api = await startApi();
    replica = await createTestHttpApp(ApiModule.register(api.config), api.config);
    onReplica = new TestClient(replica);
    const dataSource = api.app.get(DataSource);
    sql = (query, params = []) => dataSource.query(query, params);
  });
  afterAll(async () => {
    await replica?.close();
    await api?.close();
  });

  /** Each sign-in from an address of its own, so the per-address count of one never spills into another. */
  let address = 0;
  const fromNewAddress = () => ({ 'x-forwarded-for': `203.0.113.${++address}` });
  const login = (body: Record<string, string>) =>
    api.client.request('POST', '/v1/session/login', { password: PASSWORD, ...body }, fromNewAddress());

  /** A platform account made with the admin token. */
  async function operator(name = 'Ops'): Promise<{ id: string; email: string }> {
    const email = `${uniqueSlug('ops')}@example.com`;
    const created = await api.admin.post('/v1/platform/accounts', { email, name, password: PASSWORD });
    expect(created.status).toBe(201);
    return { id: created.body.account.id, email };
  }
  const signedIn = async (email: string, client = api.client) => signIn(client, { email }, fromNewAddress());
  const platformAudit = async (action: string) =>
    (await api.admin.get(`/v1/audit?action=${action}&limit=100`)).body.items as {
      actor: string;
      action: string;
      target: string;
      outcome: string;
      status: number;
    }[];

  it('enrols a second factor for a platform account, sealed under the platform key; sign-in then asks for it', async () => {
    const { id, email } = await operator();
    const browser = await signedIn(email);
    expect((await browser.get('/v1/session')).body.account).toMatchObject({ id, email, secondFactor: false });
    const enrol = await browser.post('/v1/session/totp');
    expect(enrol.status).toBe(200);
    expect(enrol.body.otpauthUrl).toMatch(/^otpauth:\/\/totp\/Cairn:/);
    expect((await browser.post('/v1/session/totp/confirm', { code: '000000' })).body.error.code).toBe('totp_invalid');
    const confirmed = await browser.post('/v1/session/totp/confirm', { code: totpCode(enrol.body.secret, -1) });
    expect(confirmed.status).toBe(204);
    expect((await browser.get('/v1/session')).body.account.secondFactor).toBe(true);

    // Sealed: the stored value is an envelope of the platform's data key, not the secret.
    const [stored] = await sql<{ totp_secret: Buffer }>('SELECT totp_secret FROM cairn.accounts WHERE id = $1', [id]);
    expect(stored.totp_secret.toString('latin1')).not.toContain(enrol.body.secret);
    expect(stored.totp_secret.readUInt16BE(1)).toBe(1);
    expect(await sql('SELECT version FROM cairn.platform_data_keys')).toEqual([{ version: 1 }]);

    const noCode = await login({ email });
    expect({ status: noCode.status, code: noCode.body.error.code }).toEqual({ status: 401, code: 'totp_required' });
    const spent = await login({ email, totp: totpCode(enrol.body.secret, -1) });
    expect({ status: spent.status, code: spent.body.error.code }).toEqual({ status: 401, code: 'totp_invalid' });
    const withCode = await signIn(api.client, { email, totp: totpCode(enrol.body.secret) }, fromNewAddress());
    expect((await withCode.get('/v1/session')).body).toMatchObject({ kind: 'platform', account: { id } });
    // The list shows it too.
    const listed = (await api.admin.get('/v1/platform/accounts?limit=500')).body.items;
    expect(listed.find((account: { id: string }) => account.id === id)).toMatchObject({ secondFactor: true });

    expect((await withCode.delete('/v1/session/totp', { code: '123456' })).status).toBe(400);
    expect((await withCode.delete('/v1/session/totp', { code: totpCode(enrol.body.secret, 1) })).status).toBe(204);
    expect((await login({ email })).status).toBe(200);
    const audit = await platformAudit('account.totp.');
    expect(audit.filter((entry) => entry.actor === `platform-account:${id}`).map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['account.totp.enrol', 'account.totp.enable', 'account.totp.disable']),
    );
  });

  it('throttles wrong codes of a platform account like wrong passwords', async () => {
    const { email } = await operator();
    const browser = await signedIn(email);
    const { secret } = (await browser.post('/v1/session/totp')).body;
    expect((await browser.post('/v1/session/totp/confirm', { code: totpCode(secret) })).status).toBe(204);
    for (let i = 0; i < 5; i += 1) {
      const wrong = await login({ email, totp: '000000' });
      expect(wrong.body.error.code).toBe('totp_invalid');
    }
    const blocked = await login({ email, totp: totpCode(secret, 1) });
    expect(blocked.status).toBe(429);
    expect(blocked.body.error.details).toMatchObject({ scope: 'account' });
  });

  it('lists the operators page by page, without secrets', async () => {
    for (let i = 0; i < 3; i += 1) await operator(`Listed ${i}`);
    const all: { id: string }[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { items: { id: string }[]; nextCursor: string | null } } =
        await api.admin.get(`/v1/platform/accounts?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      expect(page.body.items.length).toBeLessThanOrEqual(2);
      all.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    const [{ count }] = await sql<{ count: number }>('SELECT count(*)::int FROM cairn.accounts WHERE user_id IS NULL');
    expect(all).toHaveLength(count);
    expect(new Set(all.map((account) => account.id)).size).toBe(count);
    expect(Object.keys(all[0]).sort()).toEqual(['createdAt', 'disabled', 'email', 'id', 'name', 'secondFactor']);
  });

  it('disables an operator: every session ends at once on every replica, sign-in is refused; enabling lets them in again', async () => {
    const actor = await operator('Actor');
    const target = await operator('Target');
    const actorBrowser = await signedIn(actor.email);
    const here = await signedIn(target.email);
    const there = await signedIn(target.email, onReplica);
    expect((await there.get('/v1/tenants')).status).toBe(200);

    const disabled = await actorBrowser.post(`/v1/platform/accounts/${target.id}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body).toMatchObject({ id: target.id, email: target.email, disabled: true });
    for (const session of [here, there]) {
      const refused = await session.get('/v1/tenants');
      expect({ status: refused.status, code: refused.body.error.code }).toEqual({
        status: 401,
        code: 'session_expired',
      });
    }
    const live = await sql('SELECT id FROM cairn.browser_sessions WHERE account_id = $1 AND revoked_at IS NULL', [
      target.id,
    ]);
    expect(live).toEqual([]);
    const again = await login({ email: target.email });
    expect({ status: again.status, code: again.body.error.code }).toEqual({ status: 403, code: 'account_disabled' });
    // Disabling again changes nothing.
    expect((await api.admin.post(`/v1/platform/accounts/${target.id}/disable`)).body.disabled).toBe(true);

    const enabled = await actorBrowser.post(`/v1/platform/accounts/${target.id}/enable`);
    expect(enabled.status).toBe(200);
    expect(enabled.body.disabled).toBe(false);
    expect((await here.get('/v1/tenants')).status).toBe(401);
    expect((await login({ email: target.email })).status).toBe(200);

    const audit = await platformAudit('platform.account.');
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          actor: `platform-account:${actor.id}`,
          action: 'platform.account.disable',
          target: `/v1/platform/accounts/${target.id}/disable`,
          outcome: 'success',
        }),
        expect.objectContaining({
          actor: `platform-account:${actor.id}`,
          action: 'platform.account.enable',
          target: `/v1/platform/accounts/${target.id}/enable`,
          outcome: 'success',
        }),
      ]),
    );
  });

  it('refuses to disable oneself (400) and the last enabled operator (409), even in a race', async () => {
    const self = await operator('Self');
    const browser = await signedIn(self.email);
    const own = await browser.post(`/v1/platform/accounts/${self.id}/disable`);
    expect({ status: own.status, code: own.body.error.code }).toEqual({ status: 400, code: 'cannot_disable_self' });
    expect((await browser.get('/v1/session')).status).toBe(200);

    // Leave two enabled, then disable both at once: one wins, the other is refused.
    const other = await operator('Other');
    const enabledIds = async () =>
      (await sql<{ id: string }>('SELECT id FROM cairn.accounts WHERE user_id IS NULL AND disabled_at IS NULL')).map(
        (row) => row.id,
      );
    const others = (await enabledIds()).filter((id) => id !== self.id && id !== other.id);
    for (const id of others) expect((await api.admin.post(`/v1/platform/accounts/${id}/disable`)).status).toBe(200);
    const race = await Promise.all(
      [self.id, other.id].map((id) => api.admin.post(`/v1/platform/accounts/${id}/disable`)),
    );
    expect(race.map((response) => response.status).sort()).toEqual([200, 409]);
    expect(race.find((response) => response.status === 409)?.body.error.code).toBe('last_operator');
    const [last] = await enabledIds();
    expect(await enabledIds()).toHaveLength(1);
    const refused = await api.admin.post(`/v1/platform/accounts/${last}/disable`);
    expect({ status: refused.status, code: refused.body.error.code }).toEqual({ status: 409, code: 'last_operator' });
    for (const id of [...others, self.id, other.id]) {
      expect((await api.admin.post(`/v1/platform/accounts/${id}/enable`)).status).toBe(200);
    }
  });

  it("issues a one-time password link for an operator: it sets the password and ends the operator's sessions", async () => {
    const actor = await operator('Actor');
    const target = await operator('Target');
    const actorBrowser = await signedIn(actor.email);
    const targetBrowser = await signedIn(target.email);
    const issued = await actorBrowser.post(`/v1/platform/accounts/${target.id}/password-link`);
    expect(issued.status).toBe(201);
    expect(issued.body.url).toMatch(/^\/console\/reset-password#token=[A-Za-z0-9_-]{43}$/);
    const token = issued.body.url.split('#token=')[1];
    const newPassword = 'a brand new passphrase for ops';
    expect((await api.client.post('/v1/session/password', { token, password: newPassword })).status).toBe(204);
    expect((await api.client.post('/v1/session/password', { token, password: newPassword })).status).toBe(400);
    expect((await targetBrowser.get('/v1/session')).status).toBe(401);
    expect((await login({ email: target.email })).status).toBe(401);
    expect((await login({ email: target.email, password: newPassword })).status).toBe(200);

    expect((await api.admin.post(`/v1/platform/accounts/${target.id}/disable`)).status).toBe(200);
    const disabled = await actorBrowser.post(`/v1/platform/accounts/${target.id}/password-link`);
    expect({ status: disabled.status, code: disabled.body.error.code }).toEqual({
      status: 400,
      code: 'account_disabled',
    });
    const audit = await platformAudit('platform.account.password_link.issue');
    expect(audit.map((entry) => [entry.actor, entry.outcome, entry.status])).toEqual(
      expect.arrayContaining([
        [`platform-account:${actor.id}`, 'success', 201],
        [`platform-account:${actor.id}`, 'failure', 400],
      ]),
    );
  });

  it('refuses tenant tokens and sessions (403) and the bootstrap session (account_required)', async () => {
    const { id } = await operator();
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'admin');
    const tenantAdmin = api.client.as((await issueToken(api.admin, tenant, { role: 'admin', userId: user.id })).token);
    const tenantBrowser = await signIn(api.client, { tenant, email: user.email }, fromNewAddress());
    const routes: [string, string][] = [
      ['GET', '/v1/platform/accounts'],
      ['POST', `/v1/platform/accounts/${id}/disable`],
      ['POST', `/v1/platform/accounts/${id}/enable`],
      ['POST', `/v1/platform/accounts/${id}/password-link`],
    ];
    for (const [method, url] of routes) {
      for (const caller of [tenantAdmin, tenantBrowser]) {
        const response = await caller.request(method as 'GET', url);
        expect({ url, status: response.status, code: response.body.error.code }).toEqual({
          url,
          status: 403,
          code: 'platform_admin_required',
        });
      }
    }
    const denied = await platformAudit('platform.account.disable');
    expect(denied).toEqual(
      expect.arrayContaining([expect.objectContaining({ actor: expect.stringMatching(/^user:/), outcome: 'denied' })]),
    );

    const { TEST_ADMIN_TOKEN } = await import('@cairn/testing');
    const started = await api.client.post('/v1/session/bootstrap', { token: TEST_ADMIN_TOKEN });
    const bootstrap = new Browser(api.client, cookieSet(started) as string, started.body.csrfToken);
    const listed = await bootstrap.get('/v1/platform/accounts');
    expect({ status: listed.status, code: listed.body.error.code }).toEqual({ status: 403, code: 'account_required' });
    expect((await bootstrap.post('/v1/session/totp')).body.error.code).toBe('account_required');
  });

  it('answers bad input with clear 400s and an unknown account with 404', async () => {
    const { id } = await operator();
    const cases: [string, string][] = [
      ['GET', '/v1/platform/accounts?limit=0'],
      ['GET', '/v1/platform/accounts?limit=501'],
      ['GET', '/v1/platform/accounts?cursor=not-a-cursor'],
      ['GET', '/v1/platform/accounts?extra=1'],
      ['POST', '/v1/platform/accounts/not-a-uuid/disable'],
      ['POST', '/v1/platform/accounts/not-a-uuid/enable'],
      ['POST', '/v1/platform/accounts/12345/password-link'],
    ];
    for (const [method, url] of cases) {
      const response = await api.admin.request(method as 'GET', url);
      expect({ url, status: response.status, code: response.body.error.code }).toEqual({
        url,
        status: 400,
        code: 'validation_failed',
      });
      expect(response.body.error.message).toEqual(expect.any(String));
    }
    const bad = await api.admin.get('/v1/platform/accounts?cursor=x');
    expect(JSON.stringify(bad.body.error)).toContain('must be a cursor returned by a previous page');
    // A tenant user's account is not a platform account.
    const { tenant, user } = await personWithPassword(api.admin, api.client, 'member');
    const browser = await signIn(api.client, { tenant, email: user.email }, fromNewAddress());
    const tenantAccount = (await browser.get('/v1/session')).body.account.id;
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const target of [unknown, tenantAccount]) {
      for (const action of ['disable', 'enable', 'password-link']) {
        const response = await api.admin.post(`/v1/platform/accounts/${target}/${action}`);
        expect({ action, status: response.status }).toEqual({ action, status: 404 });
      }
    }
    expect((await browser.get('/v1/session')).status).toBe(200);
    expect((await api.admin.get(`/v1/platform/accounts?cursor=${id}`)).status).toBe(200);
  });
});
