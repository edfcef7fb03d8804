import { createTenant, issueToken, TestClient, TEST_ADMIN_TOKEN } from '@cairn/testing';
import { postRaw, rpc } from './gateway-harness';
import { authorizationUrl, REDIRECT_URI, registerClient, startAuthorization, tokenRequest } from './oauth-flow';
import { CookieJar, type OAuthWorld, personWithProjects, pkcePair, startOAuthWorld } from './oauth-harness';

/**
 * What Cairn's authorization server refuses (docs/oauth.md): consent only by a person in the
 * browser that started the request, within what the person has; registrations counted per
 * address; metadata documents fetched only from public https addresses; its tokens only at the
 * gateway, and only while everything behind them holds (RFC 7009 revocation, a disabled user).
 */
describe('Cairn as an OAuth authorization server: refusals', () => {
  let world: OAuthWorld;
  let person: Awaited<ReturnType<typeof personWithProjects>>;
  let address = 0;
  /** Registrations spend a budget per client address: each test registers from an address of its own. */
  const register = (name: string) => registerClient(world, name, { 'x-forwarded-for': `198.51.100.${++address}` });

  /** A consented client with its tokens. */
  async function consented(role = 'agent'): Promise<{ clientId: string; access_token: string; refresh_token: string }> {
    const clientId = await register('Consented client');
    const pkce = pkcePair();
    const flow = await startAuthorization(world, person, clientId, pkce.challenge);
    const consent = await flow.post('/consent', { role, projects: '*' });
    expect(consent.status).toBe(200);
    const back = await flow.browser.fetch(((await consent.json()) as { redirectTo: string }).redirectTo);
    const code = new URL(back.headers.get('location') as string).searchParams.get('code') as string;
    const tokens = await tokenRequest(world, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: pkce.verifier,
    });
    expect(tokens.status).toBe(200);
    return { clientId, access_token: tokens.body.access_token, refresh_token: tokens.body.refresh_token };
  }
  const gatewayStatus = async (accessToken: string, base = world.gatewayUrl) =>
    (await postRaw(`${base}/mcp`, rpc('tools/list'), { Authorization: `Bearer ${accessToken}` })).status;

  beforeAll(async () => {
    world = await startOAuthWorld({ env: { OAUTH_REGISTRATIONS_PER_HOUR: '3' }, replicas: 2 });
    person = await personWithProjects(world, 'member');
  });
  afterAll(() => world?.close());

  it('asks nobody but the browser that started the request, signed in as a person', async () => {
    const clientId = await register('Lured client');
    const flow = await startAuthorization(world, person, clientId, pkcePair().challenge);
    // The same person signed in from another browser does not hold the request's cookie.
    const other = new CookieJar();
    const login = await other.fetch(`${world.issuer}/v1/session/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        tenant: person.tenant,
        email: person.user.email,
        password: 'correct horse battery staple',
      }),
    });
    const csrf = ((await login.json()) as { csrfToken: string }).csrfToken;
    const details = await other.fetch(`${flow.interaction.href}/details`);
    expect(details.status).toBe(404);
    const consent = await other.fetch(`${flow.interaction.href}/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify({ role: 'reader', projects: '*' }),
    });
    expect(consent.status).toBe(404);
    // A bearer token is no person, and neither is the platform admin.
    const member = await issueToken(world.admin, person.tenant, {
      role: 'member',
      projects: '*',
      userId: person.user.id,
    });
    for (const token of [member.token, TEST_ADMIN_TOKEN]) {
      const response = await new TestClient(world.api).as(token).get(`/v1/oauth/interactions/${flow.uid}/details`);
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('person_required');
    }
    // Without the CSRF header the decision is refused.
    const forged = await flow.browser.fetch(`${flow.interaction.href}/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ role: 'reader', projects: '*' }),
    });
    expect(forged.status).toBe(403);
    // Malformed ids and unknown requests.
    expect((await flow.browser.fetch(`${world.issuer}/v1/oauth/interactions/x`)).status).toBe(400);
    expect((await flow.browser.fetch(`${world.issuer}/v1/oauth/interactions/${'a'.repeat(21)}/details`)).status).toBe(
      404,
    );
  });

  it('narrows only: no role above the person’s, no project that does not exist, no malformed choice', async () => {
    const clientId = await register('Greedy client');
    const flow = await startAuthorization(world, person, clientId, pkcePair().challenge);
    const cases: [unknown, number, string][] = [
      [{ role: 'admin', projects: '*' }, 400, 'role_exceeds_user'],
      [{ role: 'agent', projects: ['no-such-project'] }, 400, 'unknown_project'],
      [{ role: 'agent', projects: [] }, 400, 'validation_failed'],
      [{ role: 'root', projects: '*' }, 400, 'validation_failed'],
      [{ role: 'agent', projects: '*', extra: true }, 400, 'validation_failed'],
    ];
    for (const [body, status, code] of cases) {
      const response = await flow.post('/consent', body);
      expect([response.status, ((await response.json()) as { error: { code: string } }).error.code]).toEqual([
        status,
        code,
      ]);
    }
    // Nothing was granted by the refusals; the person may still decline.
    const grants = await flow.browser.fetch(`${world.issuer}/v1/session/oauth-grants`);
    expect(((await grants.json()) as { items: { clientId: string }[] }).items.map((g) => g.clientId)).not.toContain(
      clientId,
    );
    const deny = await flow.post('/deny');
    expect(deny.status).toBe(200);
    const back = await flow.browser.fetch(((await deny.json()) as { redirectTo: string }).redirectTo);
    const answer = new URL(back.headers.get('location') as string);
    expect(answer.searchParams.get('error')).toBe('access_denied');
    expect(answer.searchParams.get('iss')).toBe(world.issuer);
  });

  it('counts registrations per client address, and validates redirect URIs', async () => {
    const from = { 'x-forwarded-for': '203.0.113.77' };
    for (let i = 0; i < 3; i += 1) await registerClient(world, `Client ${i}`, from);
    const refused = await fetch(`${world.issuer}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...from },
      body: JSON.stringify({ redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none' }),
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    for (const uri of ['not a url', 'https://client.example/cb#fragment', 'javascript:alert(1)']) {
      const response = await fetch(`${world.issuer}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${++address}` },
        body: JSON.stringify({ redirect_uris: [uri], token_endpoint_auth_method: 'none' }),
      });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: string }).error).toMatch(/^invalid_(redirect_uri|client_metadata)$/);
    }
  });

  it('fetches no metadata document from a loopback or plain-http client id', async () => {
    for (const clientId of ['https://127.0.0.1:1/client.json', 'http://client.example/client.json']) {
      const response = await fetch(authorizationUrl(world, clientId, pkcePair().challenge), { redirect: 'manual' });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain('invalid_client');
    }
  });

  it('takes its tokens at the gateway only, and only while the token, the grant and the user hold', async () => {
    const first = await consented();
    expect(await gatewayStatus(first.access_token)).not.toBe(401);
    // The REST API is another resource: the token was not issued for it.
    const rest = await new TestClient(world.api).as(first.access_token).get('/v1/whoami');
    expect(rest.status).toBe(401);
    // RFC 7009: the client revokes its access token.
    const revoked = await fetch(`${world.issuer}/oauth/revoke`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token: first.access_token, client_id: first.clientId }).toString(),
    });
    expect(revoked.status).toBe(200);
    expect(await gatewayStatus(first.access_token)).toBe(401);

    // A disabled user's grants stop at the next request, like the user's tokens.
    const second = await consented();
    expect(await gatewayStatus(second.access_token)).not.toBe(401);
    expect(
      (await world.admin.patch(`/v1/tenants/${person.tenant}/users/${person.user.id}`, { disabled: true })).status,
    ).toBe(200);
    expect(await gatewayStatus(second.access_token)).toBe(401);
    expect(
      (await world.admin.patch(`/v1/tenants/${person.tenant}/users/${person.user.id}`, { disabled: false })).status,
    ).toBe(200);
  });

  it('keeps tenants apart: another tenant’s admin sees and revokes none of these grants', async () => {
    const granted = await consented('reader');
    const own = await world.admin.get(`/v1/tenants/${person.tenant}/oauth-grants`);
    const grant = (own.body.items as { id: string; clientId: string }[]).find((g) => g.clientId === granted.clientId);
    const other = await createTenant(world.admin);
    const otherAdmin = await issueToken(world.admin, other.slug, { role: 'admin', projects: '*' });
    const client = new TestClient(world.api).as(otherAdmin.token);
    expect((await client.get(`/v1/tenants/${person.tenant}/oauth-grants`)).status).toBe(403);
    expect((await client.delete(`/v1/tenants/${person.tenant}/oauth-grants/${String(grant?.id)}`)).status).toBe(403);
    expect((await client.delete(`/v1/tenants/${other.slug}/oauth-grants/${String(grant?.id)}`)).status).toBe(404);
    expect(await gatewayStatus(granted.access_token)).not.toBe(401);
  });

  it('stops a revoked grant at the next request on every gateway replica', async () => {
    const granted = await consented('reader');
    for (const replica of world.replicaUrls) expect(await gatewayStatus(granted.access_token, replica)).not.toBe(401);
    const list = await world.admin.get(`/v1/tenants/${person.tenant}/oauth-grants`);
    const grant = (list.body.items as { id: string; clientId: string }[]).find((g) => g.clientId === granted.clientId);
    expect((await world.admin.delete(`/v1/tenants/${person.tenant}/oauth-grants/${String(grant?.id)}`)).status).toBe(
      204,
    );
    for (const replica of world.replicaUrls) expect(await gatewayStatus(granted.access_token, replica)).toBe(401);
  });
});
