import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, connectClient, postRaw, rpc } from './gateway-harness';
import { authorizationUrl, REDIRECT_URI, tokenRequest } from './oauth-flow';
import { CookieJar, type OAuthWorld, personWithProjects, pkcePair, startOAuthWorld } from './oauth-harness';

/**
 * Cairn's own authorization server (OAUTH_ENABLED, docs/oauth.md) end to end over real HTTP: a
 * client registers, a person signs in to the console and consents with a narrowed role and
 * projects, the client trades its code (with the PKCE verifier) for tokens bound to the gateway,
 * and the gateway serves it within what was consented; refresh rotates; revocation bites at once.
 */
describe('Cairn as an OAuth authorization server for MCP clients', () => {
  let world: OAuthWorld;
  let person: Awaited<ReturnType<typeof personWithProjects>>;
  const clients: Client[] = [];

  beforeAll(async () => {
    world = await startOAuthWorld();
    person = await personWithProjects(world, 'member');
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await world?.close();
  });

  function registration(name: string, extra: Record<string, unknown> = {}): Promise<Response> {
    return fetch(`${world.issuer}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: name,
        redirect_uris: [REDIRECT_URI],
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        ...extra,
      }),
    });
  }

  async function register(name = 'Test MCP client'): Promise<string> {
    const response = await registration(name);
    expect(response.status).toBe(201);
    return ((await response.json()) as { client_id: string }).client_id;
  }
  const token = (values: Record<string, string>) => tokenRequest(world, values);

  /** The browser's part: authorize, sign in, consent; answers the authorization response's parameters. */
  async function authorize(
    clientId: string,
    choice: { role: string; projects: '*' | string[] },
    challenge: string,
    clientName: string,
  ) {
    const browser = new CookieJar();
    const start = await browser.fetch(authorizationUrl(world, clientId, challenge));
    expect(start.status).toBe(303);
    const interaction = new URL(start.headers.get('location') as string, world.issuer);
    expect(interaction.pathname).toMatch(/^\/v1\/oauth\/interactions\/[\w-]+$/);
    const toConsole = await browser.fetch(interaction.href);
    expect(toConsole.status).toBe(303);
    const uid = interaction.pathname.split('/').pop() as string;
    expect(toConsole.headers.get('location')).toBe(`/console/oauth/consent/${uid}`);

    const login = await browser.fetch(`${world.issuer}/v1/session/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        tenant: person.tenant,
        email: person.user.email,
        password: 'correct horse battery staple',
      }),
    });
    expect(login.status).toBe(200);
    const csrf = ((await login.json()) as { csrfToken: string }).csrfToken;

    const details = await browser.fetch(`${interaction.href}/details`);
    expect(details.status).toBe(200);
    const described = (await details.json()) as Record<string, unknown>;
    expect(described).toMatchObject({
      uid,
      client: { id: clientId, name: clientName, metadataDocument: false, redirectUri: REDIRECT_URI },
      resource: world.resource,
      tenant: { slug: person.tenant },
      user: { id: person.user.id },
      maxRole: 'member',
      roles: ['member', 'agent', 'reader'],
    });
    const consent = await browser.fetch(`${interaction.href}/consent`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-csrf-token': csrf },
      body: JSON.stringify(choice),
    });
    expect(consent.status).toBe(200);
    const { redirectTo } = (await consent.json()) as { redirectTo: string };
    const back = await browser.fetch(redirectTo);
    expect(back.status).toBe(303);
    const answer = new URL(back.headers.get('location') as string);
    expect(answer.origin + answer.pathname).toBe(REDIRECT_URI);
    return { params: answer.searchParams, browser, csrf };
  }

  it('publishes its metadata at both well-known names, and the gateway names it', async () => {
    for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const response = await fetch(`${world.issuer}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({
        issuer: world.issuer,
        authorization_endpoint: `${world.issuer}/oauth/authorize`,
        token_endpoint: `${world.issuer}/oauth/token`,
        registration_endpoint: `${world.issuer}/oauth/register`,
        revocation_endpoint: `${world.issuer}/oauth/revoke`,
        introspection_endpoint: `${world.issuer}/oauth/introspect`,
        code_challenge_methods_supported: ['S256'],
        authorization_response_iss_parameter_supported: true,
        client_id_metadata_document_supported: true,
      });
    }
    const metadata = await fetch(`${world.gatewayUrl}/.well-known/oauth-protected-resource/mcp`);
    expect(await metadata.json()).toMatchObject({
      resource: world.resource,
      authorization_servers: [world.issuer],
      scopes_supported: ['mcp'],
    });
    const refused = await postRaw(`${world.gatewayUrl}/mcp`, rpc('tools/list'));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toContain('scope="mcp"');
  });

  it("registers a client naming the gateway's scope, as the MCP SDK does, and still refuses a scope it does not know", async () => {
    // The SDK registers with the scope of the gateway's challenge (SEP-835): `mcp`, the resource's.
    const accepted = await registration('SDK-style client', { scope: 'mcp' });
    expect(accepted.status).toBe(201);
    const registered = (await accepted.json()) as { client_id: string; scope?: string };
    // Not a client scope of oidc-provider's: the resource indicator gives it.
    expect(registered.scope).toBeUndefined();
    const pkce = pkcePair();
    const { params } = await authorize(
      registered.client_id,
      { role: 'reader', projects: '*' },
      pkce.challenge,
      'SDK-style client',
    );
    expect(params.get('code')).toEqual(expect.any(String));

    const refused = await registration('Greedy client', { scope: 'mcp admin:everything' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toBe('invalid_client_metadata');
  });

  it('takes a client from registration to memory_recall within the consented role and projects', async () => {
    const clientId = await register();
    const pkce = pkcePair();
    const [p0, p1] = person.projects;
    const { params } = await authorize(clientId, { role: 'agent', projects: [p0] }, pkce.challenge, 'Test MCP client');
    // RFC 9207: the response names its issuer.
    expect(params.get('iss')).toBe(world.issuer);
    expect(params.get('state')).toBe('st-1');
    const code = params.get('code') as string;

    const tokens = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: pkce.verifier,
      resource: world.resource,
    });
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: 'Bearer', scope: 'mcp', expires_in: 600 });
    expect(tokens.body.refresh_token).toEqual(expect.any(String));

    const client = await connectClient(`${world.gatewayUrl}/mcp`, tokens.body.access_token);
    clients.push(client);
    const stored = await callTool(client, 'memory_store', { project: p0, content: 'OAuth clients store memories too' });
    expect(stored.isError).toBe(false);
    const recalled = await callTool(client, 'memory_recall', { project: p0, query: 'OAuth clients' });
    expect(recalled.isError).toBe(false);
    expect(recalled.text).toContain('OAuth clients store memories too');
    // The other project was not consented.
    const outside = await callTool(client, 'memory_recall', { project: p1, query: 'anything' });
    expect(outside.isError).toBe(true);
    // The role is the consented agent's, not the person's member: no merging of others' memories.
    const tools = (await client.listTools()).tools.map((tool) => tool.name);
    expect(tools).toContain('memory_recall');
    expect(tools).not.toContain('memory_merge');

    // The code is single use: a replay is refused (and oidc-provider revokes what it issued).
    const replay = await token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: pkce.verifier,
    });
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
  });

  it('rotates refresh tokens, and a reused one revokes the whole grant', async () => {
    const clientId = await register('Rotating client');
    const pkce = pkcePair();
    const { params, browser } = await authorize(
      clientId,
      { role: 'reader', projects: '*' },
      pkce.challenge,
      'Rotating client',
    );
    const first = await token({
      grant_type: 'authorization_code',
      code: params.get('code') as string,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: pkce.verifier,
    });
    expect(first.status).toBe(200);
    const second = await token({
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: clientId,
    });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    const client = await connectClient(`${world.gatewayUrl}/mcp`, second.body.access_token);
    clients.push(client);
    expect((await callTool(client, 'memory_recall', { project: person.projects[0], query: 'x' })).isError).toBe(false);

    // The rotated-out refresh token comes back: someone else holds it. Everything of the grant ends.
    const reused = await token({
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: clientId,
    });
    expect(reused.body.error).toBe('invalid_grant');
    const bearer = { Authorization: `Bearer ${second.body.access_token}` };
    const after = await postRaw(`${world.gatewayUrl}/mcp`, rpc('tools/list'), bearer);
    expect(after.status).toBe(401);
    const refresh = await token({
      grant_type: 'refresh_token',
      refresh_token: second.body.refresh_token,
      client_id: clientId,
    });
    expect(refresh.body.error).toBe('invalid_grant');
    const list = await browser.fetch(`${world.issuer}/v1/session/oauth-grants`);
    const grants = ((await list.json()) as { items: { clientId: string; revokedAt: string | null }[] }).items;
    expect(grants.find((item) => item.clientId === clientId)?.revokedAt).toEqual(expect.any(String));
  });

  it('lists the grant for its person and its admins; revoking it stops its tokens at the next request', async () => {
    const clientId = await register('Revoked client');
    const pkce = pkcePair();
    const [p0] = person.projects;
    const { params, browser, csrf } = await authorize(
      clientId,
      { role: 'agent', projects: [p0] },
      pkce.challenge,
      'Revoked client',
    );
    const tokens = await token({
      grant_type: 'authorization_code',
      code: params.get('code') as string,
      redirect_uri: REDIRECT_URI,
      client_id: clientId,
      code_verifier: pkce.verifier,
    });
    const bearer = { Authorization: `Bearer ${tokens.body.access_token}` };
    expect((await postRaw(`${world.gatewayUrl}/mcp`, rpc('tools/list'), bearer)).status).not.toBe(401);

    const own = await browser.fetch(`${world.issuer}/v1/session/oauth-grants`);
    const grant = ((await own.json()) as { items: { id: string; clientId: string }[] }).items.find(
      (item) => item.clientId === clientId,
    );
    expect(grant).toMatchObject({
      role: 'agent',
      clientName: 'Revoked client',
      projects: [p0],
      userId: person.user.id,
      revokedAt: null,
    });
    const tenantList = await world.admin.get(`/v1/tenants/${person.tenant}/oauth-grants`);
    expect(tenantList.status).toBe(200);
    expect(tenantList.body.items.map((item: { id: string }) => item.id)).toContain(grant?.id);

    // Without the CSRF header a browser request is refused; with it, the grant ends.
    const forged = await browser.fetch(`${world.issuer}/v1/session/oauth-grants/${String(grant?.id)}`, {
      method: 'DELETE',
    });
    expect(forged.status).toBe(403);
    const revoke = await browser.fetch(`${world.issuer}/v1/session/oauth-grants/${String(grant?.id)}`, {
      method: 'DELETE',
      headers: { 'x-csrf-token': csrf },
    });
    expect(revoke.status).toBe(204);
    expect((await postRaw(`${world.gatewayUrl}/mcp`, rpc('tools/list'), bearer)).status).toBe(401);
    const refresh = await token({
      grant_type: 'refresh_token',
      refresh_token: tokens.body.refresh_token,
      client_id: clientId,
    });
    expect(refresh.body.error).toBe('invalid_grant');
    // Revoking again is done already; another tenant's admin path does not know it.
    expect((await world.admin.delete(`/v1/tenants/${person.tenant}/oauth-grants/${String(grant?.id)}`)).status).toBe(
      204,
    );
    const audit = await world.admin.get(`/v1/tenants/${person.tenant}/audit?action=oauth.grant.create`);
    expect(audit.status).toBe(200);
    expect(JSON.stringify(audit.body)).toContain(`oauth-grant:${String(grant?.id)}`);
  });

  it('refuses a code without its verifier, a wrong verifier, and a token for another resource', async () => {
    const clientId = await register('Careless client');
    const pkce = pkcePair();
    const { params } = await authorize(clientId, { role: 'reader', projects: '*' }, pkce.challenge, 'Careless client');
    const code = params.get('code') as string;
    const base = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT_URI, client_id: clientId };
    const stolen = await token(base);
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('invalid_grant');

    const other = await fetch(
      `${world.issuer}/oauth/authorize?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'mcp',
        code_challenge: pkce.challenge,
        code_challenge_method: 'S256',
        resource: 'https://elsewhere.example/mcp',
      }).toString()}`,
      { redirect: 'manual' },
    );
    const location = new URL(other.headers.get('location') as string);
    expect(location.searchParams.get('error')).toBe('invalid_target');

    // Without PKCE at all the request is refused before anyone is asked.
    const plain = await fetch(
      `${world.issuer}/oauth/authorize?${new URLSearchParams({
        client_id: clientId,
        redirect_uri: REDIRECT_URI,
        response_type: 'code',
        scope: 'mcp',
      }).toString()}`,
      { redirect: 'manual' },
    );
    expect(new URL(plain.headers.get('location') as string).searchParams.get('error')).toBe('invalid_request');
  });
});
