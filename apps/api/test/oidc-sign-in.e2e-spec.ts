import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { freePort } from '@cairn/process-harness';
import {
  createTenant,
  createUser,
  type IdpClient,
  type Idps,
  SESSION_COOKIE,
  SessionBrowser,
  startIdps,
  uniqueSlug,
} from '@cairn/testing';
import pino from 'pino';
import { type ApiHarness, startApi } from './api-harness';
import { OidcBrowser } from './oidc-harness';

const ATTEMPT_COOKIE = '__Host-cairn_oidc';
const SECRET = `client-secret-${randomBytes(8).toString('hex')}`;
/** Failed callbacks one address may make per window in this file (LOGIN_IP_ATTEMPTS). */
const IP_ATTEMPTS = 5;

/**
 * Sign-in through OIDC identity providers (docs/sign-in.md, "OIDC federation") over real HTTP:
 * the api listening on a loopback port, oidc-provider as the upstream IdPs, a browser with a
 * cookie jar following every redirect and filling the IdP's login and consent forms.
 */
describe('sign-in through OIDC identity providers', () => {
  let idps: Idps;
  let api: ApiHarness;
  let cairn: string;
  const logs: { msg?: string; err?: { cause?: string; message?: string } }[] = [];
  /** Why the last refused answer was refused, as openid-client said. */
  const lastRefusal = () => logs.filter((line) => line.msg === 'OIDC sign-in refused').at(-1)?.err?.cause;
  /** The tenant every person of the `fixed` provider signs in to. */
  const fixedTenant = uniqueSlug('fixed');

  beforeAll(async () => {
    const port = await freePort();
    cairn = `http://127.0.0.1:${port}`;
    const callback = (id: string) => `${cairn}/v1/session/oidc/${id}/callback`;
    const client = (id: string, redirects: string[], tamper?: IdpClient['tamper']): IdpClient => ({
      client_id: id,
      client_secret: SECRET,
      redirect_uris: redirects.map(callback),
      tamper,
    });
    const cairnClient = client('cairn', ['corp', 'fixed']);
    idps = await startIdps([
      {
        name: 'main',
        clients: [
          cairnClient,
          // Registered for Cairn's `wrong-aud` provider, but its ID tokens name another audience.
          client('cairn-aud', ['wrong-aud'], { audience: 'other-app' }),
          // Registered for Cairn's `forged` provider, but its ID tokens are signed with another key.
          client('cairn-forged', ['forged'], { foreignKey: true }),
        ],
      },
      // An honest IdP that is not the one Cairn's `corp` provider trusts (the mix-up attack).
      { name: 'other', clients: [cairnClient] },
      { name: 'impostor', claimedIssuer: 'https://idp.example.com', clients: [] },
    ]);
    const provider = (id: string, name: string, clientId: string, settings: Record<string, unknown>) => ({
      id,
      name,
      issuer: idps.urls.main,
      clientId,
      scopes: ['openid', 'email', 'profile', 'groups', 'tenant'],
      roles: { admins: 'admin', devs: 'member', auditors: 'reader' },
      ...settings,
    });
    const byClaim = { tenantClaim: 'tenant', jitUsers: true };
    const providers = [
      provider('corp', 'Corp SSO', 'cairn', byClaim),
      provider('fixed', 'Fixed', 'cairn', { tenant: fixedTenant }),
      provider('wrong-aud', 'Wrong audience', 'cairn-aud', byClaim),
      provider('forged', 'Forged', 'cairn-forged', byClaim),
      provider('impostor', 'Impostor', 'cairn', { tenant: fixedTenant, issuer: idps.urls.impostor }),
    ];
    // Warnings say why openid-client refused an answer: the tests check it was for the right reason.
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) logs.push(JSON.parse(line));
        done();
      },
    });
    api = await startApi(
      {
        API_PUBLIC_URL: cairn,
        OIDC_PROVIDERS: JSON.stringify(providers),
        OIDC_CLIENT_SECRETS: JSON.stringify(Object.fromEntries(providers.map((provider) => [provider.id, SECRET]))),
        LOGIN_IP_ATTEMPTS: String(IP_ATTEMPTS),
      },
      pino({ level: 'warn' }, sink),
    );
    await api.app.listen(port, '127.0.0.1');
    await createTenant(api.admin, fixedTenant);
  });
  afterAll(async () => {
    await api?.close();
    await idps?.close();
  });

  /** Every browser signs in from an address of its own, so the per-address count of one never spills into another. */
  let address = 0;
  const newBrowser = () => new OidcBrowser(cairn, `198.51.100.${++address}`);

  /** A person at the main IdP, and a tenant of their own for the `corp` provider (which reads the tenant claim). */
  async function person(claims: Record<string, unknown> = {}) {
    const tenant = (await createTenant(api.admin, uniqueSlug('oidc'))).slug;
    const login = uniqueSlug('person');
    const account = {
      email: `${login}@example.com`,
      email_verified: true,
      name: 'Ada Lovelace',
      tenant,
      groups: ['devs'],
    };
    await idps.setAccount('main', login, { ...account, ...claims });
    return { tenant, login, email: `${login}@example.com` };
  }

  /** The session the browser got, seen through the public API. */
  async function sessionOf(browser: OidcBrowser) {
    const session = new SessionBrowser(api.client, browser.cookie(SESSION_COOKIE) as string, undefined);
    return session.get('/v1/session');
  }

  it('lists the configured providers for the sign-in page', async () => {
    const response = await api.client.get('/v1/session/providers');
    expect(response.body).toEqual({
      local: true,
      oidc: [
        { id: 'corp', name: 'Corp SSO' },
        { id: 'fixed', name: 'Fixed' },
        { id: 'wrong-aud', name: 'Wrong audience' },
        { id: 'forged', name: 'Forged' },
        { id: 'impostor', name: 'Impostor' },
      ],
    });
  });

  it('signs a new person in just in time, in the tenant and role the claims give, and audits it', async () => {
    const { tenant, login, email } = await person({ groups: ['devs', 'unmapped'] });
    const browser = newBrowser();
    const authorizationUrl = await browser.start('corp');
    const request = new URL(authorizationUrl);
    expect(request.origin).toBe(idps.urls.main);
    expect(Object.fromEntries(request.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: 'cairn',
      redirect_uri: `${cairn}/v1/session/oidc/corp/callback`,
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      state: expect.any(String),
      nonce: expect.any(String),
    });
    expect(browser.cookie(ATTEMPT_COOKIE)).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const back = await browser.callback(await browser.authorize(authorizationUrl, login));
    expect(back).toEqual({ status: 303, location: '/console/', error: null });
    expect(browser.cookie(ATTEMPT_COOKIE)).toBeUndefined();
    const session = await sessionOf(browser);
    expect(session.body).toMatchObject({
      kind: 'tenant',
      via: 'browser',
      tenant: { slug: tenant },
      role: 'member',
      account: { email, name: 'Ada Lovelace' },
    });
    const users = await api.admin.get(`/v1/tenants/${tenant}/users`);
    expect(users.body.items).toEqual([expect.objectContaining({ email, name: 'Ada Lovelace', role: 'member' })]);
    const audit = await api.admin.get(`/v1/tenants/${tenant}/audit?limit=20`);
    expect(audit.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          action: 'session.login.oidc',
          outcome: 'success',
          target: '/v1/session/oidc/corp/callback',
          actor: expect.stringContaining(users.body.items[0].id),
        }),
      ]),
    );
  });

  it('gives the role of the groups at every sign-in: a lowered role holds at once, live sessions too', async () => {
    const { tenant, login } = await person({ groups: ['admins'] });
    const first = newBrowser();
    expect((await first.signIn('corp', login)).error).toBeNull();
    expect((await sessionOf(first)).body.role).toBe('admin');
    await idps.setAccount('main', login, { ...claimsOf(tenant, login), groups: ['auditors'] });
    const second = newBrowser();
    expect((await second.signIn('corp', login)).error).toBeNull();
    expect((await sessionOf(second)).body.role).toBe('reader');
    // The first session's token was minted for an admin; the user is a reader now.
    expect((await sessionOf(first)).body.role).toBe('reader');
  });

  it('refuses a person none of whose groups gives a role, an unverified email and an unknown tenant', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ groups: ['visitors'] }, 'no_role'],
      [{ email_verified: false }, 'email_not_verified'],
      [{ tenant: uniqueSlug('nowhere') }, 'unknown_tenant'],
    ];
    for (const [claims, error] of cases) {
      const { login } = await person(claims);
      const browser = newBrowser();
      expect(await browser.signIn('corp', login)).toEqual({
        status: 303,
        location: `/console/sign-in?error=${error}`,
        error,
      });
      expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
    }
  });

  it('lets in only users an admin made when the provider creates none, then knows them by subject', async () => {
    const login = uniqueSlug('bob');
    const email = `${login}@example.com`;
    await idps.setAccount('main', login, { email, email_verified: true, name: 'Bob', groups: ['devs'] });
    expect((await newBrowser().signIn('fixed', login)).error).toBe('user_not_found');

    const user = await createUser(api.admin, fixedTenant, 'reader', email);
    const browser = newBrowser();
    expect((await browser.signIn('fixed', login)).error).toBeNull();
    // The mapping decides the role, not what the admin chose.
    expect((await sessionOf(browser)).body).toMatchObject({ tenant: { slug: fixedTenant }, role: 'member' });

    // A new email at the IdP: still the same user, found by the provider's subject.
    await idps.setAccount('main', login, { email: `renamed-${email}`, email_verified: true, groups: ['devs'] });
    const again = newBrowser();
    expect((await again.signIn('fixed', login)).error).toBeNull();
    expect((await sessionOf(again)).body.account).toMatchObject({ email });
    const users = await api.admin.get(`/v1/tenants/${fixedTenant}/users`);
    expect(users.body.items.filter((item: { id: string }) => item.id === user.id)).toHaveLength(1);
    expect(users.body.items.filter((item: { email: string }) => item.email.startsWith('renamed-'))).toEqual([]);
  });

  it("refuses a second person of the provider who claims a linked user's email", async () => {
    const { tenant, login, email } = await person();
    expect((await newBrowser().signIn('corp', login)).error).toBeNull();
    const impostor = uniqueSlug('mallory');
    await idps.setAccount('main', impostor, { email, email_verified: true, tenant, groups: ['admins'] });
    expect((await newBrowser().signIn('corp', impostor)).error).toBe('identity_conflict');
  });

  it('refuses a disabled user and ends their live session', async () => {
    const { tenant, login, email } = await person();
    const browser = newBrowser();
    expect((await browser.signIn('corp', login)).error).toBeNull();
    const users = await api.admin.get(`/v1/tenants/${tenant}/users`);
    const user = users.body.items.find((item: { email: string }) => item.email === email);
    expect((await api.admin.patch(`/v1/tenants/${tenant}/users/${user.id}`, { disabled: true })).status).toBe(200);
    expect((await sessionOf(browser)).body.error.code).toBe('user_disabled');
    expect((await newBrowser().signIn('corp', login)).error).toBe('account_disabled');
  });

  it('ends an OIDC session when its token is revoked, and on sign-out', async () => {
    const { tenant, login } = await person();
    const revoked = newBrowser();
    expect((await revoked.signIn('corp', login)).error).toBeNull();
    const tokens = await api.admin.get(`/v1/tenants/${tenant}/tokens`);
    const consoleToken = tokens.body.items.find((token: { label: string }) => token.label === 'console session');
    expect((await api.admin.delete(`/v1/tenants/${tenant}/tokens/${consoleToken.id}`)).status).toBe(204);
    expect((await sessionOf(revoked)).body.error.code).toBe('token_revoked');

    const signedOut = newBrowser();
    expect((await signedOut.signIn('corp', login)).error).toBeNull();
    const view = await sessionOf(signedOut);
    const session = new SessionBrowser(api.client, signedOut.cookie(SESSION_COOKIE) as string, view.body.csrfToken);
    expect((await session.post('/v1/session/logout')).status).toBe(204);
    expect((await session.get('/v1/session')).status).toBe(401);
  });

  it('refuses an ID token issued for another client (wrong audience)', async () => {
    const { login } = await person();
    const browser = newBrowser();
    expect(await browser.signIn('wrong-aud', login)).toMatchObject({ error: 'sign_in_failed' });
    expect(lastRefusal()).toBe('unexpected JWT "aud" (audience) claim value');
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
  });

  it('refuses an ID token not signed by a key the issuer publishes', async () => {
    const { login } = await person();
    const browser = newBrowser();
    expect(await browser.signIn('forged', login)).toMatchObject({ error: 'sign_in_failed' });
    expect(lastRefusal()).toBe('JWT signature verification failed');
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
  });

  it('refuses an issuer whose metadata names another issuer', async () => {
    expect(await newBrowser().signIn('impostor', 'anyone')).toEqual({
      status: 303,
      location: '/console/sign-in?error=provider_unavailable',
      error: 'provider_unavailable',
    });
  });

  it("refuses an answer from another issuer than the provider's (mix-up)", async () => {
    const { tenant, login } = await person();
    await idps.setAccount('other', login, { ...claimsOf(tenant, login), groups: ['admins'] });
    const browser = newBrowser();
    const sentTo = new URL(await browser.start('corp'));
    const elsewhere = new URL(`${sentTo.pathname}${sentTo.search}`, idps.urls.other).href;
    const answer = await browser.authorize(elsewhere, login);
    expect(new URL(answer).searchParams.get('iss')).toBe(idps.urls.other);
    expect(await browser.callback(answer)).toMatchObject({ error: 'sign_in_failed' });
    expect(lastRefusal()).toBe('unexpected "iss" (issuer) response parameter value');
    expect(browser.cookie(SESSION_COOKIE)).toBeUndefined();
  });

  it('refuses a tampered state, a tampered nonce, a replayed answer and an answer to another browser', async () => {
    const { login } = await person();

    const state = newBrowser();
    const stateAnswer = new URL(await state.authorize(await state.start('corp'), login));
    stateAnswer.searchParams.set('state', randomBytes(32).toString('base64url'));
    expect(await state.callback(stateAnswer.href)).toMatchObject({ error: 'sign_in_failed' });
    expect(lastRefusal()).toBe('unexpected "state" response parameter value');

    const nonce = newBrowser();
    const request = new URL(await nonce.start('corp'));
    request.searchParams.set('nonce', randomBytes(32).toString('base64url'));
    expect(await nonce.callback(await nonce.authorize(request.href, login))).toMatchObject({ error: 'sign_in_failed' });
    expect(lastRefusal()).toBe('unexpected ID Token "nonce" claim value');

    const replay = newBrowser();
    const answer = await replay.authorize(await replay.start('corp'), login);
    const attempt = replay.cookie(ATTEMPT_COOKIE) as string;
    const elsewhere = newBrowser();
    // Another browser (no attempt cookie) cannot use this browser's answer…
    expect(await elsewhere.callback(answer)).toMatchObject({ error: 'sign_in_expired' });
    expect(await replay.callback(answer)).toMatchObject({ error: null, location: '/console/' });
    // …and nobody can use it twice, not even with the attempt's cookie.
    const replayed = await fetch(answer, {
      redirect: 'manual',
      headers: { cookie: `${ATTEMPT_COOKIE}=${attempt}`, 'x-forwarded-for': replay.address },
    });
    expect(replayed.headers.get('location')).toBe('/console/sign-in?error=sign_in_expired');
    expect(replayed.headers.getSetCookie().some((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`))).toBe(false);
  });

  it('throttles failed callbacks per client address', async () => {
    const { login } = await person();
    const browser = newBrowser();
    const garbage = `${cairn}/v1/session/oidc/corp/callback?code=x&state=y`;
    for (let i = 0; i < IP_ATTEMPTS; i += 1) {
      expect(await browser.callback(garbage)).toMatchObject({ error: 'sign_in_expired' });
    }
    expect(await browser.callback(garbage)).toMatchObject({ error: 'rate_limited' });
    // Even a good answer, from that address: its budget is spent.
    expect(await browser.signIn('corp', login)).toMatchObject({ error: 'rate_limited' });
    expect(await newBrowser().signIn('corp', login)).toMatchObject({ error: null });
    const audit = await api.admin.get('/v1/audit?limit=100');
    expect(audit.body.items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'session.login.oidc', outcome: 'failure', status: 429 }),
        expect.objectContaining({
          action: 'session.login.oidc',
          outcome: 'failure',
          details: { code: 'sign_in_expired' },
        }),
      ]),
    );
  });

  it('sends an unknown provider back to the sign-in page', async () => {
    expect(await newBrowser().signIn('nobody', 'anyone')).toMatchObject({ error: 'unknown_provider' });
  });

  /** The claims `person` gave, for a change of one of them. */
  function claimsOf(tenant: string, login: string): Record<string, unknown> {
    return { email: `${login}@example.com`, email_verified: true, name: 'Ada Lovelace', tenant };
  }
});
