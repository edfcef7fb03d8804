import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DataSource } from 'typeorm';
import { type Idps, startIdps } from '@cairn/testing';
import {
  callTool,
  connectClient,
  type GatewayWorld,
  postRaw,
  rpc,
  startGatewayWorld,
  tenantWithProjects,
  tokenFor,
  toolOk,
} from './gateway-harness';

/** What the gateway says it is (MCP_PUBLIC_URL): its resource, and so its tokens' default audience. */
const PUBLIC_URL = 'https://cairn.example.test';
const RESOURCE = `${PUBLIC_URL}/mcp`;
const METADATA_URL = `${PUBLIC_URL}/.well-known/oauth-protected-resource/mcp`;
const machine = (id: string) => ({
  client_id: id,
  client_secret: `${id}-secret`,
  grant_types: ['client_credentials'],
  response_types: [],
  redirect_uris: [],
  scope: 'mcp',
});
const CLIENTS = ['builder', 'auditor', 'outsider', 'nobody', 'ghost'];

/**
 * JWT access tokens of an existing authorization server (MCP_AUTHORIZATION_SERVERS, docs/oauth.md):
 * a real oidc-provider issuing RFC 9068 tokens for the gateway's resource (client_credentials),
 * taken by the SDK's real client; every way a token can be wrong is refused; session tokens still work.
 */
describe('MCP gateway with an external authorization server', () => {
  let idps: Idps;
  let world: GatewayWorld;
  let slug: string;
  let schema: string;
  let p0: string;
  let p1: string;
  const clients: Client[] = [];
  const secretOf = (id: string) => ({ id, secret: `${id}-secret` });
  const corpToken = (id: string, resource = RESOURCE) => idps.clientCredentialsToken('corp', secretOf(id), resource);
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const connect = async (token: string) => {
    const client = await connectClient(world.mcpUrl, token);
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    idps = await startIdps([
      { name: 'corp', clients: CLIENTS.map(machine) },
      // Same client ids and claims, another issuer: its tokens are nobody's here.
      { name: 'rogue', clients: CLIENTS.map(machine) },
    ]);
    world = await startGatewayWorld({
      overrides: {
        MCP_PUBLIC_URL: PUBLIC_URL,
        MCP_AUTHORIZATION_SERVERS: JSON.stringify([
          {
            issuer: idps.urls.corp,
            algorithms: ['RS256'],
            tenantClaim: 'cairn_tenant',
            groupsClaim: 'groups',
            roles: { 'cairn-builders': 'agent', 'cairn-auditors': 'reader' },
            projectsClaim: 'cairn_projects',
            requiredScope: 'mcp',
            jwksCooldownSeconds: 0,
          },
        ]),
      },
    });
    const acme = await tenantWithProjects(world, 2);
    slug = acme.tenant.slug;
    schema = acme.tenant.schema;
    [p0, p1] = acme.projects;
    const claims: Record<string, Record<string, unknown>> = {
      builder: { cairn_tenant: slug, groups: ['cairn-builders'], cairn_projects: [p0] },
      // A space-separated string, as some servers write list claims.
      auditor: { cairn_tenant: slug, groups: 'cairn-auditors', cairn_projects: `${p0} ${p1}` },
      outsider: { cairn_tenant: slug, groups: ['contractors'] },
      nobody: { cairn_tenant: 'no-such-tenant', groups: ['cairn-builders'], cairn_projects: [p0] },
    };
    for (const issuer of ['corp', 'rogue']) {
      for (const [client, values] of Object.entries(claims)) await idps.setTokenClaims(issuer, client, values);
    }
  });
  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await world?.close();
    await idps?.close();
  });

  it('names the authorization server in the protected resource metadata, at both paths', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const response = await fetch(`${world.gateways[0].url}${path}`);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        resource: RESOURCE,
        resource_name: 'Cairn MCP gateway',
        authorization_servers: [idps.urls.corp],
        bearer_methods_supported: ['header'],
        scopes_supported: ['mcp'],
        resource_documentation: expect.any(String),
      });
    }
  });

  it('answers 401 with a challenge naming the metadata and the scope to ask for', async () => {
    const response = await postRaw(world.mcpUrl, rpc('tools/list'));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toBe(
      `Bearer realm="cairn", resource_metadata="${METADATA_URL}", scope="mcp"`,
    );
  });

  it('serves an MCP session to a JWT access token, within its role and projects', async () => {
    const token = await corpToken('builder');
    const header = JSON.parse(Buffer.from(token.split('.')[0], 'base64url').toString()) as { typ?: string };
    expect(header.typ).toBe('at+jwt');
    const builder = await connect(token);
    const stored = await toolOk(builder, 'memory_store', {
      content: 'Heron deploys go through the canary first',
      scope: 'project',
    });
    expect(stored.data.memory.project).toBe(p0);
    const recalled = await toolOk(builder, 'memory_recall', { query: 'heron canary', mode: 'keyword' });
    expect(recalled.data.results.map((hit: { memory: { id: string } }) => hit.memory.id)).toContain(
      stored.data.memory.id,
    );
    // cairn_projects names p0 only.
    const elsewhere = await callTool(builder, 'memory_store', { content: 'Heron in the other project', project: p1 });
    expect(elsewhere.isError).toBe(true);
    expect(elsewhere.text).toMatch(new RegExp(p1));
    // The audit trail names issuer and subject.
    const actor = `jwt:${idps.urls.corp}/sub:builder`;
    const sql = world.api.get(DataSource);
    let found = 0;
    for (let attempt = 0; attempt < 50 && found === 0; attempt += 1) {
      const rows: unknown[] = await sql.query(
        `SELECT actor FROM "${schema}".audit_log WHERE actor = $1
         UNION ALL SELECT entry->>'actor' FROM cairn.audit_outbox WHERE entry->>'actor' = $1`,
        [actor],
      );
      found = rows.length;
      if (found === 0) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(found).toBeGreaterThan(0);
  });

  it("maps a reader's groups to reader: it recalls, and storing is refused", async () => {
    const token = await corpToken('auditor');
    const call = rpc('tools/call', { name: 'memory_store', arguments: { content: 'x', project: p0 } }, 3);
    const refused = await postRaw(world.mcpUrl, call, bearer(token));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="insufficient_scope"/);
    const auditor = await connect(token);
    const recalled = await toolOk(auditor, 'memory_recall', { query: 'heron canary', mode: 'keyword', project: p0 });
    expect(recalled.data.results.length).toBeGreaterThan(0);
  });

  it("acts as one subject across its tokens: a session of one token is the subject's, not another's", async () => {
    const initialize = rpc('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    const first = await corpToken('builder');
    const second = await corpToken('builder');
    expect(second).not.toBe(first);
    const initialized = await postRaw(world.mcpUrl, initialize, bearer(first));
    expect(initialized.status).toBe(200);
    const sessionId = initialized.headers.get('mcp-session-id')!;
    // The session id is bound to the token id, which for a JWT is the subject's (issuer and sub).
    const again = await postRaw(world.mcpUrl, rpc('tools/list'), { ...bearer(second), 'Mcp-Session-Id': sessionId });
    expect(again.status).toBe(200);
    const auditor = await corpToken('auditor');
    const other = await postRaw(world.mcpUrl, rpc('tools/list'), { ...bearer(auditor), 'Mcp-Session-Id': sessionId });
    expect(other.status).toBe(404);
  });

  it('refuses with 401 a token of another issuer, for another audience, expired, tampered or unsigned', async () => {
    const now = Math.floor(Date.now() / 1000);
    const good = await corpToken('builder');
    const [head, body] = good.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const reencode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const cases: [string, string, RegExp][] = [
      ['another issuer', await idps.clientCredentialsToken('rogue', secretOf('builder'), RESOURCE), /issuer/],
      ['another audience', await corpToken('builder', 'https://other.example.test/mcp'), /aud/],
      [
        'expired',
        await idps.sign('corp', { ...payload, iat: now - 900, exp: now - 300 }, { header: { typ: 'at+jwt' } }),
        /expired/,
      ],
      ['not yet valid', await idps.sign('corp', { ...payload, nbf: now + 600 }, { header: { typ: 'at+jwt' } }), /nbf/],
      ['tampered', `${head}.${reencode({ ...payload, sub: 'admin' })}.${good.split('.')[2]}`, /signature/],
      [
        'signed with a key the issuer does not publish',
        await idps.sign('corp', payload, { foreignKey: true }),
        /signature/,
      ],
      ['unsigned (alg none)', `${reencode({ alg: 'none', typ: 'at+jwt' })}.${body}.`, /algorithm/],
      ['an ID token type', await idps.sign('corp', payload, { header: { typ: 'id+jwt' } }), /not an access token/],
      ['naming an unknown tenant', await corpToken('nobody'), /tenant/],
    ];
    for (const [what, token, message] of cases) {
      const response = await postRaw(world.mcpUrl, rpc('tools/list'), bearer(token));
      expect({ what, status: response.status }).toEqual({ what, status: 401 });
      expect({ what, challenge: response.headers.get('www-authenticate') }).toEqual({
        what,
        challenge: `Bearer realm="cairn", error="invalid_token", resource_metadata="${METADATA_URL}", scope="mcp"`,
      });
      expect({ what, message: response.json.error.message }).toEqual({ what, message: expect.stringMatching(message) });
    }
    // The very token they were made from passes.
    expect((await postRaw(world.mcpUrl, rpc('tools/list'), bearer(good))).status).toBe(200);
  });

  it('refuses with 403 a good token with no role here, without the scope, or of a suspended tenant', async () => {
    const outsider = await postRaw(world.mcpUrl, rpc('tools/list'), bearer(await corpToken('outsider')));
    expect(outsider.status).toBe(403);
    expect(outsider.json.error.message).toMatch(/groups/);
    const good = await corpToken('builder');
    const payload = JSON.parse(Buffer.from(good.split('.')[1], 'base64url').toString()) as Record<string, unknown>;
    const unscoped = await idps.sign('corp', { ...payload, scope: 'openid' }, { header: { typ: 'at+jwt' } });
    const noScope = await postRaw(world.mcpUrl, rpc('tools/list'), bearer(unscoped));
    expect(noScope.status).toBe(403);
    expect(noScope.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="mcp", resource_metadata="${METADATA_URL}"`,
    );
    expect((await world.admin.post(`/v1/tenants/${slug}/suspend`)).status).toBe(200);
    try {
      const suspended = await postRaw(world.mcpUrl, rpc('tools/list'), bearer(good));
      expect(suspended.status).toBe(403);
      expect(suspended.json.error.message).toMatch(/suspended/);
    } finally {
      expect((await world.admin.post(`/v1/tenants/${slug}/resume`)).status).toBe(200);
    }
    expect((await postRaw(world.mcpUrl, rpc('tools/list'), bearer(good))).status).toBe(200);
  });

  it('picks up a key rotation at the issuer', async () => {
    const before = await corpToken('builder');
    expect((await postRaw(world.mcpUrl, rpc('tools/list'), bearer(before))).status).toBe(200);
    await idps.rotateKeys('corp');
    const after = await corpToken('builder');
    expect(JSON.parse(Buffer.from(after.split('.')[0], 'base64url').toString()).kid).not.toBe(
      JSON.parse(Buffer.from(before.split('.')[0], 'base64url').toString()).kid,
    );
    // An unknown key id: the gateway fetches the issuer's keys again and finds it.
    const client = await connect(after);
    await toolOk(client, 'memory_recall', { query: 'heron', mode: 'keyword' });
    // The retired key is no longer published, so its tokens no longer verify.
    expect((await postRaw(world.mcpUrl, rpc('tools/list'), bearer(before))).status).toBe(401);
  });

  it('keeps serving session tokens beside JWTs', async () => {
    const session = await connect(await tokenFor(world, slug, { role: 'agent', projects: [p1] }));
    const stored = await toolOk(session, 'memory_store', { content: 'Session tokens still work next to JWTs' });
    expect(stored.data.memory.project).toBe(p1);
    const garbage = await postRaw(world.mcpUrl, rpc('tools/list'), bearer('cairn_st_wrong'));
    expect(garbage.status).toBe(401);
  });
});
