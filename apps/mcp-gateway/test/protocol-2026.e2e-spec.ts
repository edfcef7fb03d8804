import {
  CLIENT_CAPABILITIES_META_KEY,
  CLIENT_INFO_META_KEY,
  Client as ModernClient,
  PROTOCOL_VERSION_META_KEY,
  StreamableHTTPClientTransport as ModernTransport,
} from '@modelcontextprotocol/client';
import {
  connectClient,
  type GatewayWorld,
  postRaw,
  rpc,
  startGatewayWorld,
  tenantWithProjects,
  tokenFor,
} from './gateway-harness';

const MODERN = '2026-07-28';
/** The per-request envelope a 2026-07-28 client puts in every request's `_meta`. */
const ENVELOPE = {
  [PROTOCOL_VERSION_META_KEY]: MODERN,
  [CLIENT_INFO_META_KEY]: { name: 'raw-2026', version: '1.0.0' },
  [CLIENT_CAPABILITIES_META_KEY]: {},
};

/** A 2026-07-28 request body: no handshake before it, everything it needs in its `_meta`. */
function modernRpc(method: string, params: Record<string, unknown> = {}, id: number | string = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: ENVELOPE } });
}

/** The standard request headers of the revision, mirroring the body for intermediaries. */
function modernHeaders(token: string, method: string, name?: string): Record<string, string> {
  return {
    Authorization: `Bearer ${token}`,
    'MCP-Protocol-Version': MODERN,
    'Mcp-Method': method,
    ...(name === undefined ? {} : { 'Mcp-Name': name }),
  };
}

interface Sent {
  readonly method: string;
  readonly headers: Headers;
}

/** The SDK's v2 client pinned to 2026-07-28, recording every request it sends and every session id it gets. */
async function connectModern(url: string, token: string) {
  const sent: Sent[] = [];
  const sessionIds: string[] = [];
  const recording = async (input: string | URL | Request, init?: RequestInit) => {
    const body = typeof init?.body === 'string' ? (JSON.parse(init.body) as { method?: string }) : {};
    sent.push({ method: body.method ?? '', headers: new Headers(init?.headers) });
    const response = await fetch(input, init);
    const sessionId = response.headers.get('mcp-session-id');
    if (sessionId) sessionIds.push(sessionId);
    return response;
  };
  const client = new ModernClient(
    { name: 'cairn-test-2026', version: '1.0.0' },
    { versionNegotiation: { mode: { pin: MODERN } } },
  );
  const transport = new ModernTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
    fetch: recording,
  });
  await client.connect(transport);
  return { client, sent, sessionIds };
}

/**
 * Issue 24 §2: the 2026-07-28 revision (stateless: no initialize and no session, per-request
 * `_meta`, `server/discover`, `Mcp-Method`/`Mcp-Name` headers, result types, cache hints)
 * served beside 2025-11-25 from the same /mcp, by the SDK, behind the same gate.
 */
describe('MCP gateway: protocol revision 2026-07-28 beside 2025-11-25', () => {
  let world: GatewayWorld;
  let agent: string;
  let reader: string;
  let urls: [string, string];

  beforeAll(async () => {
    world = await startGatewayWorld({ gateways: 2 });
    const { tenant, projects } = await tenantWithProjects(world, 1);
    agent = await tokenFor(world, tenant.slug, { role: 'agent', projects, agentId: 'claude-code:2026' });
    reader = await tokenFor(world, tenant.slug, { role: 'reader', projects });
    urls = [`${world.gateways[0].url}/mcp`, `${world.gateways[1].url}/mcp`];
  });
  afterAll(async () => {
    await world?.close();
  });

  it('connects the SDK v2 client with server/discover alone, and serves its tool calls without a session', async () => {
    const { client, sent, sessionIds } = await connectModern(urls[0], agent);
    try {
      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      const discovered = client.getDiscoverResult();
      expect(discovered?.supportedVersions).toContain(MODERN);
      expect(discovered?.capabilities.tools).toBeDefined();
      expect(client.getServerVersion()).toMatchObject({ name: 'cairn' });
      expect(client.getInstructions()).toMatch(/recall_context/);

      const content = `2026 client stored this at ${Date.now()}: deploys go out on Tuesdays`;
      const stored = await client.callTool({ name: 'memory_store', arguments: { content, category: 'decision' } });
      expect(stored.isError).toBeFalsy();
      const id = (stored.structuredContent as { memory: { id: string } }).memory.id;
      const recalled = await client.callTool({ name: 'memory_recall', arguments: { query: 'deploys Tuesdays' } });
      expect(JSON.stringify(recalled.content)).toContain(id);

      // The wire: discovery first, never a handshake, the standard headers on every request,
      // and no session id handed out.
      expect(sent[0].method).toBe('server/discover');
      expect(sent.map((request) => request.method)).not.toContain('initialize');
      for (const request of sent) {
        expect(request.headers.get('mcp-protocol-version')).toBe(MODERN);
        expect(request.headers.get('mcp-method')).toBe(request.method);
      }
      const calls = sent.filter((request) => request.method === 'tools/call');
      expect(calls.map((request) => request.headers.get('mcp-name'))).toEqual(['memory_store', 'memory_recall']);
      expect(sessionIds).toEqual([]);
      // Counted like any other tool call.
      const metrics = await (await fetch(`${world.gateways[0].url}/metrics`)).text();
      expect(metrics).toMatch(/cairn_mcp_tool_calls_total\{tool="memory_store",outcome="success"\} [1-9]/);
    } finally {
      await client.close();
    }
  });

  it('answers a tool call with no handshake on any replica, typed with resultType', async () => {
    const content = `raw 2026 call at ${Date.now()}: the staging database is read-only on Fridays`;
    const call = modernRpc('tools/call', { name: 'memory_store', arguments: { content } }, 5);
    const stored = await postRaw(urls[1], call, modernHeaders(agent, 'tools/call', 'memory_store'));
    expect(stored.status).toBe(200);
    expect(stored.headers.get('mcp-session-id')).toBeNull();
    expect(stored.json).toMatchObject({ jsonrpc: '2.0', id: 5, result: { resultType: 'complete' } });
    expect(stored.json.result.isError).toBeFalsy();
    const id: string = stored.json.result.structuredContent.memory.id;
    // The other replica, never having seen this client, finds it at once.
    const recall = modernRpc('tools/call', {
      name: 'memory_recall',
      arguments: { query: 'staging read-only Fridays' },
    });
    const recalled = await postRaw(urls[0], recall, modernHeaders(agent, 'tools/call', 'memory_recall'));
    expect(recalled.json.result.resultType).toBe('complete');
    expect(JSON.stringify(recalled.json.result.content)).toContain(id);
    // The server says who it is on every 2026 answer.
    expect(recalled.json.result._meta).toMatchObject({ 'io.modelcontextprotocol/serverInfo': { name: 'cairn' } });
  });

  it('refuses an Mcp-Method or Mcp-Name header that disagrees with the body (400, -32020), running nothing', async () => {
    const content = `header mismatch canary ${Date.now()}`;
    const store = modernRpc('tools/call', { name: 'memory_store', arguments: { content } }, 'mismatch');
    const cases: [string, Record<string, string>][] = [
      ['Mcp-Name names another tool', modernHeaders(agent, 'tools/call', 'memory_recall')],
      ['Mcp-Name missing', modernHeaders(agent, 'tools/call')],
      ['Mcp-Method names another method', modernHeaders(agent, 'tools/list', 'memory_store')],
      [
        'MCP-Protocol-Version names another revision',
        { ...modernHeaders(agent, 'tools/call', 'memory_store'), 'MCP-Protocol-Version': '2025-11-25' },
      ],
    ];
    for (const [label, headers] of cases) {
      const refused = await postRaw(urls[0], store, headers);
      expect({ label, status: refused.status, code: refused.json?.error?.code }).toEqual({
        label,
        status: 400,
        code: -32020,
      });
    }
    // None of them stored anything.
    // By keyword: the text itself, had any of them stored it (a semantic ranker lists neighbours anyway).
    const check = modernRpc('tools/call', {
      name: 'memory_recall',
      arguments: { query: content, mode: 'keyword' },
    });
    const recalled = await postRaw(urls[0], check, modernHeaders(agent, 'tools/call', 'memory_recall'));
    expect(recalled.json.result.content[0].text).toMatch(/^No memories match/);
    // The base64 sentinel form of the same name is accepted.
    const encoded = `=?base64?${Buffer.from('memory_recall').toString('base64')}?=`;
    const sentinel = await postRaw(urls[0], check, modernHeaders(agent, 'tools/call', encoded));
    expect(sentinel.status).toBe(200);
  });

  it('refuses a revision it does not serve, and a 2026 header without the envelope', async () => {
    const future = JSON.stringify({
      jsonrpc: '2.0',
      id: 9,
      method: 'tools/list',
      params: { _meta: { ...ENVELOPE, [PROTOCOL_VERSION_META_KEY]: '2099-01-01' } },
    });
    const unsupported = await postRaw(urls[0], future, {
      ...modernHeaders(agent, 'tools/list'),
      'MCP-Protocol-Version': '2099-01-01',
    });
    expect(unsupported.status).toBe(400);
    expect(unsupported.json.error).toMatchObject({ code: -32022, data: { supported: [MODERN] } });
    const bare = await postRaw(urls[0], rpc('tools/list', {}, 10), modernHeaders(agent, 'tools/list'));
    expect(bare.status).toBe(400);
    expect(bare.json).toMatchObject({ id: 10, error: { code: -32602 } });
    // Params that do not fit the method: -32602 with a reason, not an internal error.
    const badParams = modernRpc('tools/call', { name: 'memory_recall', arguments: 'not an object' }, 11);
    const invalid = await postRaw(urls[0], badParams, modernHeaders(agent, 'tools/call', 'memory_recall'));
    expect(invalid.json).toMatchObject({ id: 11, error: { code: -32602 } });
    expect(invalid.json.error.message).not.toMatch(/Internal/);
  });

  it('puts cache hints on the cacheable results of 2026 and none on 2025 answers', async () => {
    const hints = async (method: string, params: Record<string, unknown> = {}) => {
      const answer = await postRaw(
        urls[0],
        modernRpc(method, params),
        modernHeaders(agent, method, params.uri as string),
      );
      expect({ method, status: answer.status }).toEqual({ method, status: 200 });
      const { ttlMs, cacheScope, resultType } = answer.json.result;
      return { ttlMs, cacheScope, resultType };
    };
    const fiveMinutes = 5 * 60_000;
    expect(await hints('server/discover')).toEqual({
      ttlMs: fiveMinutes,
      cacheScope: 'public',
      resultType: 'complete',
    });
    // What a token sees depends on its role and toolsets: no shared cache may keep it.
    expect(await hints('tools/list')).toEqual({ ttlMs: fiveMinutes, cacheScope: 'private', resultType: 'complete' });
    expect(await hints('resources/templates/list')).toMatchObject({ ttlMs: fiveMinutes, cacheScope: 'private' });
    expect(await hints('prompts/list')).toMatchObject({ ttlMs: fiveMinutes, cacheScope: 'public' });
    // Data another agent may change at any moment is never reused.
    const listed = await postRaw(urls[0], modernRpc('resources/list'), modernHeaders(agent, 'resources/list'));
    expect(listed.json.result).toMatchObject({ ttlMs: 0, cacheScope: 'private' });
    const uri: string | undefined = listed.json.result.resources[0]?.uri;
    expect(uri).toBeDefined();
    expect(await hints('resources/read', { uri })).toMatchObject({ ttlMs: 0, cacheScope: 'private' });

    const legacy = await postRaw(urls[0], rpc('tools/list'), {
      Authorization: `Bearer ${agent}`,
      'MCP-Protocol-Version': '2025-11-25',
    });
    expect(legacy.status).toBe(200);
    expect(legacy.json.result.tools.length).toBeGreaterThan(0);
    for (const field of ['ttlMs', 'cacheScope', 'resultType']) expect(legacy.json.result).not.toHaveProperty(field);
  });

  it('keeps the gate for 2026 requests: 401 without a token, 403 insufficient_scope for a reader writing', async () => {
    const list = modernRpc('tools/list');
    const anonymous = await postRaw(urls[0], list, { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/list' });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer realm="cairn", resource_metadata="/);
    const store = modernRpc('tools/call', { name: 'memory_store', arguments: { content: 'x' } }, 3);
    const refused = await postRaw(urls[0], store, modernHeaders(reader, 'tools/call', 'memory_store'));
    expect(refused.status).toBe(403);
    expect(refused.headers.get('www-authenticate')).toMatch(/error="insufficient_scope", scope="memory\.write"/);
    expect(refused.json).toMatchObject({ id: 3, error: { code: -32003 } });
    // The reader's own tool list leaves out what it may not call.
    const { client } = await connectModern(urls[0], reader);
    try {
      const names = (await client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain('memory_recall');
      expect(names).not.toContain('memory_store');
    } finally {
      await client.close();
    }
  });

  it('serves a 2025-11-25 client (SDK v1) and a 2026-07-28 client (SDK v2) on the same endpoint at once', async () => {
    const legacy = await connectClient(urls[0], agent);
    const modern = await connectModern(urls[0], agent);
    try {
      expect(legacy.getServerVersion()).toMatchObject({ name: 'cairn' });
      // The 2025 client went through initialize and holds a session id bound to its token.
      const transport = (legacy as unknown as { transport?: { sessionId?: string } }).transport;
      expect(transport?.sessionId).toMatch(/^[\x21-\x7e]+$/);
      expect(modern.client.getProtocolEra()).toBe('modern');

      const content = `written by the 2025 client ${Date.now()}: the API gateway times out after 29 s`;
      const stored = await legacy.callTool({ name: 'memory_store', arguments: { content } });
      expect(stored.isError).toBeFalsy();
      const id = (stored.structuredContent as { memory: { id: string } }).memory.id;
      const recalled = await modern.client.callTool({ name: 'memory_get', arguments: { id } });
      expect(recalled.isError).toBeFalsy();
      expect(recalled.structuredContent).toMatchObject({ id, content });
      const [legacyTools, modernTools] = await Promise.all([legacy.listTools(), modern.client.listTools()]);
      expect(modernTools.tools.map((tool) => tool.name).sort()).toEqual(
        legacyTools.tools.map((tool) => tool.name).sort(),
      );
      // The SDK v2 client left to negotiate on its own picks 2026-07-28 here.
      const auto = new ModernClient({ name: 'auto', version: '1' }, { versionNegotiation: { mode: 'auto' } });
      await auto.connect(
        new ModernTransport(new URL(urls[1]), { requestInit: { headers: { Authorization: `Bearer ${agent}` } } }),
      );
      expect(auto.getProtocolEra()).toBe('modern');
      await auto.close();
    } finally {
      await legacy.close();
      await modern.client.close();
    }
  });
});
