import { request as httpRequest } from 'node:http';
import { Client as PgClient } from 'pg';
import {
  connectClient,
  type GatewayWorld,
  postRaw,
  rpc,
  startGatewayWorld,
  tenantWithProjects,
  tokenFor,
} from './gateway-harness';
import { issueToken, TEST_ADMIN_TOKEN } from '@cairn/testing';

const ALLOWED_ORIGIN = 'https://app.example.com';
const BODY_LIMIT = 65_536;

/** Everything a client can get wrong (or a hostile page can try) at the HTTP layer of /mcp. */
describe('MCP gateway transport', () => {
  let world: GatewayWorld;
  let slug: string;
  let project: string;
  let agentToken: string;

  beforeAll(async () => {
    world = await startGatewayWorld({
      overrides: { MCP_ALLOWED_ORIGINS: ALLOWED_ORIGIN, HTTP_BODY_LIMIT_BYTES: String(BODY_LIMIT) },
    });
    const { tenant, projects } = await tenantWithProjects(world, 1);
    slug = tenant.slug;
    project = projects[0];
    agentToken = await tokenFor(world, slug, { role: 'agent', projects: [project], agentId: 'claude-code:transport' });
  });
  afterAll(async () => {
    await world?.close();
  });

  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const metadataUrl = () => `${world.gateways[0].url}/.well-known/oauth-protected-resource/mcp`;

  describe('authentication (RFC 9728 / RFC 6750)', () => {
    it('serves the protected resource metadata the challenge points at', async () => {
      for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
        const response = await fetch(`${world.gateways[0].url}${path}`);
        expect(response.status).toBe(200);
        const document = (await response.json()) as Record<string, unknown>;
        expect(document.resource).toBe(world.mcpUrl);
        expect(document.bearer_methods_supported).toEqual(['header']);
        expect(document.scopes_supported).toEqual(expect.arrayContaining(['memory.read', 'memory.write']));
        // Platform and tenant-administration permissions are not something an MCP token asks for.
        expect(document.scopes_supported).not.toContain('platform.tenants.manage');
        // No authorization server unless MCP_AUTHORIZATION_SERVERS names one: some clients stop
        // sending the session token header once the metadata names one.
        expect(document).not.toHaveProperty('authorization_servers');
      }
    });

    it('answers 401 with a Bearer challenge naming the metadata when the token is missing', async () => {
      const response = await postRaw(world.mcpUrl, rpc('tools/list'));
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe(
        `Bearer realm="cairn", resource_metadata="${metadataUrl()}"`,
      );
      expect(response.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32001 } });
    });

    it('answers 401 with error="invalid_token" for an unknown, malformed, revoked or expired token', async () => {
      const revoked = await issueToken(world.admin, slug, { role: 'agent', projects: [project] });
      expect((await world.admin.delete(`/v1/tenants/${slug}/tokens/${revoked.id}`)).status).toBeLessThan(300);
      const expired = await issueToken(world.admin, slug, { role: 'agent', projects: [project] });
      await expireToken(world, expired.id);
      const cases = [
        ['unknown', `cairn_st_${'A'.repeat(43)}`, /not recognised|malformed/i],
        ['garbage', 'not-a-token', /not recognised/i],
        ['revoked', revoked.token, /revoked/i],
        ['expired', expired.token, /expired/i],
      ] as const;
      for (const [what, token, message] of cases) {
        const response = await postRaw(world.mcpUrl, rpc('tools/list'), bearer(token));
        expect({ what, status: response.status }).toEqual({ what, status: 401 });
        expect(response.headers.get('www-authenticate')).toBe(
          `Bearer realm="cairn", error="invalid_token", resource_metadata="${metadataUrl()}"`,
        );
        expect(response.json.error.message).toMatch(message);
      }
    });

    it('makes the SDK client fail to connect without a valid token', async () => {
      await expect(connectClient(world.mcpUrl, 'cairn_st_wrong')).rejects.toThrow();
    });

    it('refuses a token in the query string even when it is valid', async () => {
      for (const name of ['access_token', 'token', 'api_key']) {
        const response = await postRaw(`${world.mcpUrl}?${name}=${agentToken}`, rpc('tools/list'));
        expect(response.status).toBe(400);
        expect(response.json.error.message).toMatch(/query string/);
      }
      // Also when a header is present: the URL (and so the logs) must never carry it.
      const both = await postRaw(`${world.mcpUrl}?access_token=${agentToken}`, rpc('tools/list'), bearer(agentToken));
      expect(both.status).toBe(400);
    });

    it('answers 403 to the platform admin token: MCP needs a tenant session token', async () => {
      const response = await postRaw(world.mcpUrl, rpc('tools/list'), bearer(TEST_ADMIN_TOKEN));
      expect(response.status).toBe(403);
      expect(response.json.error.message).toMatch(/tenant session token/);
    });

    it('answers 403 insufficient_scope when a reader calls memory_store', async () => {
      const reader = await tokenFor(world, slug, { role: 'reader', projects: [project] });
      const call = rpc('tools/call', { name: 'memory_store', arguments: { content: 'x' } }, 7);
      const response = await postRaw(world.mcpUrl, call, bearer(reader));
      expect(response.status).toBe(403);
      const challenge = response.headers.get('www-authenticate') ?? '';
      expect(challenge).toMatch(/^Bearer error="insufficient_scope", scope="memory\.write"/);
      expect(challenge).toContain(`resource_metadata="${metadataUrl()}"`);
      expect(response.json).toMatchObject({ id: 7, error: { code: -32003 } });
      // The SDK client sees the refusal as an error, and the reader still reads.
      const client = await connectClient(world.mcpUrl, reader);
      await expect(client.callTool({ name: 'memory_store', arguments: { content: 'x' } })).rejects.toMatchObject({
        code: 403,
        message: expect.stringMatching(/may not call memory_store/),
      });
      const recalled = await client.callTool({ name: 'memory_recall', arguments: { query: 'anything' } });
      expect(recalled.isError).toBeFalsy();
      await client.close();
    });
  });

  describe('HTTP semantics of the stateless endpoint', () => {
    it('answers GET and DELETE with 405 and Allow: POST', async () => {
      for (const method of ['GET', 'DELETE']) {
        const response = await fetch(world.mcpUrl, { method, headers: bearer(agentToken) });
        expect(response.status).toBe(405);
        expect(response.headers.get('allow')).toBe('POST');
        expect(((await response.json()) as { error: { code: number } }).error.code).toBe(-32000);
      }
    });

    it('answers 406 when the client does not accept both JSON and SSE', async () => {
      for (const accept of ['text/html', 'application/json', 'text/event-stream']) {
        const response = await postRaw(world.mcpUrl, rpc('tools/list'), { ...bearer(agentToken), Accept: accept });
        expect({ accept, status: response.status }).toEqual({ accept, status: 406 });
        expect(response.json.error.message).toMatch(/Not Acceptable/);
      }
    });

    it('answers 415 for a body that is not application/json', async () => {
      for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/jsonx']) {
        const response = await postRaw(world.mcpUrl, rpc('tools/list'), {
          ...bearer(agentToken),
          'Content-Type': type,
        });
        expect({ type, status: response.status }).toEqual({ type, status: 415 });
      }
    });

    it('answers 400 for an unsupported MCP-Protocol-Version header', async () => {
      const response = await postRaw(world.mcpUrl, rpc('tools/list'), {
        ...bearer(agentToken),
        'MCP-Protocol-Version': '1999-01-01',
      });
      expect(response.status).toBe(400);
      expect(response.json.error.message).toMatch(/Unsupported protocol version/);
      const supported = await postRaw(world.mcpUrl, rpc('tools/list'), {
        ...bearer(agentToken),
        'MCP-Protocol-Version': '2025-11-25',
      });
      expect(supported.status).toBe(200);
    });

    it('answers malformed JSON with 400 and a JSON-RPC parse error', async () => {
      for (const body of ['{"jsonrpc":"2.0",', 'not json', '']) {
        const response = await postRaw(world.mcpUrl, body, bearer(agentToken));
        expect({ body, status: response.status }).toEqual({ body, status: 400 });
        expect(response.json).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
      }
    });

    it('answers 413 over HTTP_BODY_LIMIT_BYTES with a JSON-RPC body, and still serves after', async () => {
      const content = 'x'.repeat(BODY_LIMIT + 1);
      const response = await postRaw(
        world.mcpUrl,
        rpc('tools/call', { name: 'memory_store', arguments: { content } }),
        bearer(agentToken),
      );
      expect(response.status).toBe(413);
      expect(response.json).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) } });
      expect((await postRaw(world.mcpUrl, rpc('tools/list'), bearer(agentToken))).status).toBe(200);
    });

    it('answers 400 to a body nested too deeply instead of overflowing the stack', async () => {
      const nested = (levels: number) => `${'{"a":'.repeat(levels)}1${'}'.repeat(levels)}`;
      const deep = `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"memory_store","arguments":{"content":${nested(10_000)}}}}`;
      const response = await postRaw(world.mcpUrl, deep, bearer(agentToken));
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({
        id: 4,
        error: { code: -32600, message: expect.stringMatching(/nested deeper/) },
      });
      // Ordinary nesting (a few levels of arguments) is untouched.
      const shallow = rpc('tools/call', { name: 'memory_recall', arguments: { query: 'shallow', limit: 3 } });
      expect((await postRaw(world.mcpUrl, shallow, bearer(agentToken))).status).toBe(200);
    });

    it('answers JSON by default and SSE when the request asks for progress', async () => {
      const plain = await postRaw(
        world.mcpUrl,
        rpc('tools/call', { name: 'memory_recall', arguments: { query: 'json please' } }),
        bearer(agentToken),
      );
      expect(plain.status).toBe(200);
      expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
      expect(plain.json.result.content[0].type).toBe('text');

      const streamed = await postRaw(
        world.mcpUrl,
        rpc('tools/call', { name: 'memory_recall', arguments: { query: 'stream' }, _meta: { progressToken: 'p1' } }, 9),
        bearer(agentToken),
      );
      expect(streamed.status).toBe(200);
      expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const data = streamed.text
        .split('\n')
        .filter((line) => line.startsWith('data: ') && line.length > 6)
        .map((line) => JSON.parse(line.slice(6)) as { id?: number; result?: unknown });
      expect(data.find((message) => message.id === 9)?.result).toBeDefined();
    });
  });

  describe('Origin and Host (DNS rebinding)', () => {
    it('refuses an Origin outside MCP_ALLOWED_ORIGINS, allows a listed one and an absent one', async () => {
      const hostile = await postRaw(world.mcpUrl, rpc('tools/list'), {
        ...bearer(agentToken),
        Origin: 'https://evil.example',
      });
      expect(hostile.status).toBe(403);
      expect(hostile.json.error.message).toMatch(/Origin/);
      const allowed = await postRaw(world.mcpUrl, rpc('tools/list'), { ...bearer(agentToken), Origin: ALLOWED_ORIGIN });
      expect(allowed.status).toBe(200);
      const absent = await postRaw(world.mcpUrl, rpc('tools/list'), bearer(agentToken));
      expect(absent.status).toBe(200);
    });

    it('refuses a foreign Host header while bound to loopback (before looking at the token)', async () => {
      const foreign = await rawHttp(world.mcpUrl, 'evil.example', agentToken);
      expect(foreign.status).toBe(403);
      // Refused before authentication: a rebinding page without a token learns nothing either.
      expect((await rawHttp(world.mcpUrl, 'evil.example')).status).toBe(403);
      expect(JSON.parse(foreign.body).error.message).toMatch(/Host/);
      const withPort = await rawHttp(world.mcpUrl, 'evil.example:8081', agentToken);
      expect(withPort.status).toBe(403);
      const loopback = await rawHttp(world.mcpUrl, `localhost:${new URL(world.mcpUrl).port}`, agentToken);
      expect(loopback.status).toBe(200);
    });
  });

  describe('observability', () => {
    it('counts and times tool calls in the gateway /metrics', async () => {
      const client = await connectClient(world.mcpUrl, agentToken);
      await client.callTool({ name: 'memory_recall', arguments: { query: 'metrics' } });
      await client.callTool({ name: 'memory_recall', arguments: { query: 42 } });
      await client.close();
      const text = await (await fetch(`${world.gateways[0].url}/metrics`)).text();
      expect(text).toMatch(/cairn_mcp_tool_calls_total\{tool="memory_recall",outcome="success"\} [1-9]/);
      expect(text).toMatch(/cairn_mcp_tool_calls_total\{tool="memory_recall",outcome="invalid_arguments"\} [1-9]/);
      expect(text).toMatch(/cairn_mcp_tool_duration_seconds_count\{tool="memory_recall"\} [1-9]/);
    });

    it('writes one audit row per tool call with an argument digest and never the content', async () => {
      const secret = `audit-canary-${Date.now()}`;
      const client = await connectClient(world.mcpUrl, agentToken);
      const stored = await client.callTool({ name: 'memory_store', arguments: { content: `${secret} is stored` } });
      expect(stored.isError).toBeFalsy();
      await client.callTool({ name: 'memory_store', arguments: { content: 7 } });
      await client.close();

      const rows = await pollAudit(world, slug, (items) => items.filter((row) => row.action === 'mcp.memory_store'), 2);
      const [failed, succeeded] = rows; // newest first
      expect(succeeded).toMatchObject({ outcome: 'success', target: project, tenantId: expect.any(String) });
      expect(succeeded.details).toMatchObject({ agentId: 'claude-code:transport', argsDigest: expect.any(String) });
      expect(String(succeeded.details.argsDigest)).toMatch(/^[0-9a-f]{32}$/);
      expect(failed).toMatchObject({ outcome: 'failure', details: { code: 'invalid_arguments' } });
      expect(failed.details.argsDigest).not.toBe(succeeded.details.argsDigest);
      expect(JSON.stringify(rows)).not.toContain(secret);
    });
  });
});

describe('MCP gateway rate limits', () => {
  let world: GatewayWorld;
  beforeAll(async () => {
    world = await startGatewayWorld({
      overrides: { RATE_LIMIT_TOKEN_PER_MINUTE: '3', RATE_LIMIT_TENANT_PER_MINUTE: '5' },
    });
  });
  afterAll(async () => {
    await world?.close();
  });

  it('refuses the 4th request of a token with 429, Retry-After and a JSON-RPC error', async () => {
    const { tenant, projects } = await tenantWithProjects(world, 1);
    const token = await tokenFor(world, tenant.slug, { role: 'agent', projects });
    for (let i = 1; i <= 3; i += 1) {
      expect((await postRaw(world.mcpUrl, rpc('tools/list', {}, i), { Authorization: `Bearer ${token}` })).status).toBe(
        200,
      );
    }
    const refused = await postRaw(world.mcpUrl, rpc('tools/list', {}, 'fourth'), { Authorization: `Bearer ${token}` });
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(refused.json).toMatchObject({
      jsonrpc: '2.0',
      id: 'fourth',
      error: {
        code: -32029,
        message: expect.stringMatching(/Rate limit/),
        data: { scope: 'token', retryAfterSeconds: retryAfter },
      },
    });
    // The SDK client gets an error it can show, not a hang.
    await expect(connectClient(world.mcpUrl, token)).rejects.toMatchObject({
      code: 429,
      message: expect.stringMatching(/Rate limit exceeded/),
    });
  });

  it('counts the per-tenant budget across every token of the tenant', async () => {
    const { tenant, projects } = await tenantWithProjects(world, 1);
    const first = await tokenFor(world, tenant.slug, { role: 'agent', projects });
    const second = await tokenFor(world, tenant.slug, { role: 'agent', projects });
    const responses: Awaited<ReturnType<typeof postRaw>>[] = [];
    for (const token of [first, first, first, second, second, second]) {
      responses.push(await postRaw(world.mcpUrl, rpc('tools/list'), { Authorization: `Bearer ${token}` }));
    }
    // `second` made 3 requests (within its own budget of 3): the 6th is the tenant's.
    expect(responses.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 429]);
    expect(responses[5].json.error.data).toMatchObject({ scope: 'tenant' });
    expect(responses[5].headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    // Another tenant is not affected.
    const other = await tenantWithProjects(world, 1);
    const outsider = await tokenFor(world, other.tenant.slug, { role: 'agent', projects: other.projects });
    expect((await postRaw(world.mcpUrl, rpc('tools/list'), { Authorization: `Bearer ${outsider}` })).status).toBe(200);
  });

  it('spends the same budget as the REST API, and refuses alike on both', async () => {
    const { tenant, projects } = await tenantWithProjects(world, 1);
    const token = await tokenFor(world, tenant.slug, { role: 'agent', projects });
    const rest = world.admin.as(token);
    const memories = `/v1/projects/${projects[0]}/memories`;
    const bearer = { Authorization: `Bearer ${token}` };
    expect((await rest.get(memories)).status).toBe(200);
    expect((await postRaw(world.mcpUrl, rpc('tools/list'), bearer)).status).toBe(200);
    expect((await rest.get(memories)).status).toBe(200);
    // Two REST requests and one MCP request: the token's 3 are spent, on either door.
    const mcp = await postRaw(world.mcpUrl, rpc('tools/list', {}, 'over'), bearer);
    const viaRest = await rest.get(memories);
    expect([mcp.status, viaRest.status]).toEqual([429, 429]);
    expect(mcp.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
    expect(viaRest.headers['retry-after']).toMatch(/^[1-9][0-9]*$/);
    const wording = /^Rate limit exceeded: 3 requests per minute per token; retry in \d+ s$/;
    expect(mcp.json.error).toMatchObject({ message: expect.stringMatching(wording), data: { scope: 'token' } });
    expect(viaRest.body.error).toMatchObject({
      code: 'rate_limited',
      message: expect.stringMatching(wording),
      details: { scope: 'token' },
    });
  });
});

interface AuditRow {
  action: string;
  outcome: string;
  target: string | null;
  tenantId: string | null;
  details: Record<string, unknown>;
}

/** The gateway writes audit rows in batches every 50 ms: poll the api until they are there. */
async function pollAudit(
  world: GatewayWorld,
  slug: string,
  pick: (items: AuditRow[]) => AuditRow[],
  count: number,
): Promise<AuditRow[]> {
  const deadline = Date.now() + 5_000;
  for (;;) {
    const page = await world.admin.get<{ items: AuditRow[] }>(`/v1/tenants/${slug}/audit?limit=500`);
    expect(page.status).toBe(200);
    const rows = pick(page.body.items);
    if (rows.length >= count || Date.now() > deadline) {
      expect(rows).toHaveLength(count);
      return rows;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Tokens live at least a minute; expiry is tested by moving the clock of the row instead. */
async function expireToken(world: GatewayWorld, tokenId: string): Promise<void> {
  const client = new PgClient({ connectionString: world.database.url });
  await client.connect();
  try {
    await client.query(`UPDATE cairn.session_tokens SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      tokenId,
    ]);
  } finally {
    await client.end();
  }
}

/** `fetch` will not let a caller choose the Host header; node:http will. */
function rawHttp(url: string, host: string, token?: string): Promise<{ status: number; body: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        headers: {
          Host: host,
          ...(token ? { Authorization: `Bearer ${token}` } : {}),
          Accept: 'application/json, text/event-stream',
          'Content-Type': 'application/json',
        },
      },
      (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
      },
    );
    request.on('error', reject);
    request.end(rpc('tools/list'));
  });
}
