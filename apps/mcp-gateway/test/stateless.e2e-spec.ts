import { issueToken } from '@cairn/testing';
import {
  connectClient,
  type GatewayWorld,
  postRaw,
  rpc,
  startGatewayWorld,
  tenantWithProjects,
} from './gateway-harness';

interface StoredMemory {
  memory: { id: string; content: string };
}

/**
 * Two gateway replicas over one database and Redis, as behind a plain load balancer with no
 * sticky sessions: any replica must answer any request, and what one learns (a revocation,
 * a rate-limit count) holds on the other at once.
 */
describe('MCP gateway: two stateless replicas', () => {
  let world: GatewayWorld;
  let slug: string;
  let project: string;
  let urls: [string, string];

  beforeAll(async () => {
    world = await startGatewayWorld({ gateways: 2, overrides: { RATE_LIMIT_TOKEN_PER_MINUTE: '40' } });
    const { tenant, projects } = await tenantWithProjects(world, 1);
    slug = tenant.slug;
    project = projects[0];
    urls = [`${world.gateways[0].url}/mcp`, `${world.gateways[1].url}/mcp`];
    expect(urls[0]).not.toBe(urls[1]);
  });
  afterAll(async () => {
    await world?.close();
  });

  it('behaves as one service when calls alternate between replicas, with a fresh client per call', async () => {
    const { token } = await issueToken(world.admin, slug, { role: 'agent', projects: [project], agentId: 'lb:1' });
    /** One call on one replica by a client that connects, calls and leaves: no session survives. */
    const callOn = async (replica: 0 | 1, name: string, args: Record<string, unknown>) => {
      const client = await connectClient(urls[replica], token);
      try {
        const result = await client.callTool({ name, arguments: args });
        expect({ name, replica, isError: result.isError ?? false }).toEqual({ name, replica, isError: false });
        return result;
      } finally {
        await client.close();
      }
    };

    const storedOnA = storedOf(
      await callOn(0, 'memory_store', { content: 'Replica A stored: billing uses Stripe webhooks' }),
    );
    const storedOnB = storedOf(
      await callOn(1, 'memory_store', { content: 'Replica B stored: search runs on pgvector HNSW' }),
    );

    const recalledOnB = await callOn(1, 'memory_recall', { query: 'billing Stripe webhooks' });
    expect(textOf(recalledOnB)).toContain(storedOnA.memory.id);
    const recalledOnA = await callOn(0, 'memory_recall', { query: 'pgvector HNSW search' });
    expect(textOf(recalledOnA)).toContain(storedOnB.memory.id);

    // One long-lived client whose successive requests are spread over both replicas, as a
    // round-robin balancer would: the client never notices.
    const client = await connectClient(urls[0], token);
    const other = await connectClient(urls[1], token);
    for (let i = 0; i < 6; i += 1) {
      const target = i % 2 === 0 ? client : other;
      const result = await target.callTool({ name: 'memory_recall', arguments: { query: `Stripe webhooks ${i}` } });
      expect(textOf(result)).toContain(storedOnA.memory.id);
    }
    await client.close();
    await other.close();

    // Requests other than initialize need no session id, and are handed none.
    for (const url of urls) {
      const response = await postRaw(url, rpc('tools/list'), { Authorization: `Bearer ${token}` });
      expect(response.status).toBe(200);
      expect(response.headers.get('mcp-session-id')).toBeNull();
      expect(response.json.result.tools.length).toBeGreaterThan(0);
    }
  });

  it('issues a session id at initialize that every replica honours for its token only, storing nothing', async () => {
    const { token } = await issueToken(world.admin, slug, { role: 'agent', projects: [project], agentId: 'lb:2' });
    const other = await issueToken(world.admin, slug, { role: 'agent', projects: [project], agentId: 'lb:3' });
    const initialize = rpc('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    });
    const bearer = { Authorization: `Bearer ${token}` };
    const initialized = await postRaw(urls[0], initialize, bearer);
    expect(initialized.status).toBe(200);
    const sessionId = initialized.headers.get('mcp-session-id');
    expect(sessionId).toMatch(/^[\x21-\x7e]+$/);
    // A second initialize is a second session.
    expect((await postRaw(urls[0], initialize, bearer)).headers.get('mcp-session-id')).not.toBe(sessionId);

    // The other replica honours it: nothing was stored on the first.
    const listed = await postRaw(urls[1], rpc('tools/list'), { ...bearer, 'Mcp-Session-Id': sessionId! });
    expect(listed.status).toBe(200);
    expect(listed.json.result.tools.length).toBeGreaterThan(0);

    // Another token presenting it, or a made-up id: 404, so the client starts a new session.
    for (const [headers, label] of [
      [{ Authorization: `Bearer ${other.token}`, 'Mcp-Session-Id': sessionId! }, 'another token'],
      [{ ...bearer, 'Mcp-Session-Id': 'made-up-session' }, 'a made-up id'],
      [{ ...bearer, 'Mcp-Session-Id': `${sessionId!.slice(0, -2)}AA` }, 'an altered id'],
    ] as const) {
      const refused = await postRaw(urls[1], rpc('tools/list'), headers);
      expect({ label, status: refused.status }).toEqual({ label, status: 404 });
      expect(refused.json.error).toMatchObject({ code: -32001, message: expect.stringMatching(/Session not found/) });
    }

    // The SDK client keeps the id it was given and sends it with every call.
    const client = await connectClient(urls[0], token);
    const transport = (client as unknown as { transport?: { sessionId?: string } }).transport;
    expect(transport?.sessionId).toMatch(/^[\x21-\x7e]+$/);
    expect((await client.callTool({ name: 'memory_recall', arguments: { query: 'Stripe' } })).isError ?? false).toBe(
      false,
    );
    await client.close();
  });

  it('refuses a token revoked through the admin API on both replicas at once', async () => {
    const issued = await issueToken(world.admin, slug, { role: 'agent', projects: [project] });
    const bearer = { Authorization: `Bearer ${issued.token}` };
    // Both replicas have just seen the token as valid (a positive cache would keep it alive).
    for (const url of urls) expect((await postRaw(url, rpc('tools/list'), bearer)).status).toBe(200);
    const clients = [await connectClient(urls[0], issued.token), await connectClient(urls[1], issued.token)];

    const revoked = await world.admin.delete(`/v1/tenants/${slug}/tokens/${issued.id}`);
    expect(revoked.status).toBeLessThan(300);

    const after = await Promise.all(urls.map((url) => postRaw(url, rpc('tools/list'), bearer)));
    for (const response of after) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      expect(response.json.error.message).toMatch(/revoked/);
    }
    // Clients connected before the revocation are refused on their next call too.
    for (const client of clients) {
      await expect(client.callTool({ name: 'memory_recall', arguments: { query: 'x' } })).rejects.toMatchObject({
        code: 401,
      });
      await client.close();
    }
  });

  it('counts one rate-limit budget across both replicas', async () => {
    const { tenant, projects } = await tenantWithProjects(world, 1);
    const { token } = await issueToken(world.admin, tenant.slug, { role: 'agent', projects });
    const bearer = { Authorization: `Bearer ${token}` };
    const statuses: number[] = [];
    for (let i = 0; i < 41; i += 1) {
      statuses.push((await postRaw(urls[i % 2], rpc('tools/list', {}, i), bearer)).status);
    }
    // 40 per minute in all, not 40 per replica: the 41st (on replica A) is refused...
    expect(statuses.slice(0, 40).every((status) => status === 200)).toBe(true);
    expect(statuses[40]).toBe(429);
    // ...and so is the next one on replica B.
    const onB = await postRaw(urls[1], rpc('tools/list'), bearer);
    expect(onB.status).toBe(429);
    expect(onB.json.error.data).toMatchObject({ scope: 'token' });
  });

  it('counts every message of a batch against the budget, not the batch as one', async () => {
    const { tenant, projects } = await tenantWithProjects(world, 1);
    const { token } = await issueToken(world.admin, tenant.slug, { role: 'agent', projects });
    const headers = { Authorization: `Bearer ${token}`, 'mcp-protocol-version': '2025-03-26' };
    const batch = `[${Array.from({ length: 40 }, (_, i) => rpc('tools/list', {}, i)).join(',')}]`;
    expect((await postRaw(urls[0], batch, headers)).status).toBe(200);
    expect((await postRaw(urls[1], rpc('tools/list', {}, 41), headers)).status).toBe(429);
  });
});

function storedOf(result: Record<string, unknown>): StoredMemory {
  return result.structuredContent as StoredMemory;
}

function textOf(result: Record<string, unknown>): string {
  return ((result.content ?? []) as { type: string; text?: string }[]).map((item) => item.text ?? '').join('\n');
}
