import { createServer, type Server, type Socket, connect } from 'node:net';
import { TestClient } from '@cairn/testing';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  connectClient,
  type GatewayWorld,
  postRaw,
  rpc,
  startGatewayWorld,
  tenantWithProjects,
  tokenFor,
} from './gateway-harness';

/**
 * A TCP relay in front of PostgreSQL the test can cut: every open connection is reset and
 * new ones are refused, as during a database restart; `restore()` listens again on the port.
 */
class CuttableRelay {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly targetPort: number,
    readonly port: number,
  ) {}

  static async start(targetPort: number): Promise<CuttableRelay> {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as { port: number }).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const relay = new CuttableRelay(targetPort, port);
    await relay.restore();
    return relay;
  }

  async restore(): Promise<void> {
    if (this.server) return;
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', resolve);
    });
    this.server = server;
  }

  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.resetAndDestroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

/**
 * PostgreSQL drops out under a running api and gateway. A connection-level failure is not a
 * bug: REST answers 503 with Retry-After and MCP a retryable error (HTTP 503 when the token
 * lookup met it, a tool error `unavailable` when the tool did), never a 500 or -32603; once
 * the database is back both answer normally again.
 */
describe('REST and MCP with PostgreSQL unreachable', () => {
  let world: GatewayWorld;
  let relay: CuttableRelay;
  let project: string;
  let token: string;
  let mcp: Client;

  beforeAll(async () => {
    world = await startGatewayWorld({
      databaseVia: async (port) => {
        relay = await CuttableRelay.start(port);
        return relay.port;
      },
    });
    const acme = await tenantWithProjects(world, 1);
    project = acme.projects[0];
    token = await tokenFor(world, acme.tenant.slug, { role: 'agent', projects: [project], agentId: 'agent-p' });
    mcp = await connectClient(world.mcpUrl, token);
    expect((await callTool(mcp, 'memory_store', { content: 'PostgreSQL is up' })).isError).toBe(false);
  });
  afterAll(async () => {
    await relay?.restore();
    await mcp?.close();
    await world?.close();
    await relay?.cut();
  });

  it('answers 503 with Retry-After on REST and a retryable error on MCP, then recovers', async () => {
    await relay.cut();
    const rest = new TestClient(world.api).as(token);
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) {
      const stored = await rest.post(`/v1/projects/${project}/memories`, { content: `REST write ${i}` });
      statuses.push(stored.status);
      expect(stored.status).toBe(503);
      expect(stored.headers['retry-after']).toBe('5');
      expect(stored.body.error).toMatchObject({ code: 'unavailable' });
      expect(JSON.stringify(stored.body)).not.toMatch(/ECONN|127\.0\.0\.1|postgres/i);
    }

    const seen: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const raw = await postRaw(
        world.mcpUrl,
        rpc('tools/call', { name: 'memory_store', arguments: { content: `MCP write ${i}` } }, i + 1),
        { Authorization: `Bearer ${token}` },
      );
      expect(raw.status).not.toBe(500);
      expect(raw.text).not.toContain('-32603');
      if (raw.status === 503) {
        expect(raw.headers.get('retry-after')).toBe('5');
        expect(raw.json.error).toMatchObject({ code: -32053, data: { code: 'unavailable', retryAfterSeconds: 5 } });
        expect(raw.json.id).toBe(i + 1);
        seen.push('http-503');
      } else {
        expect(raw.status).toBe(200);
        expect(raw.json.result.isError).toBe(true);
        expect(raw.json.result.content[0].text).toMatch(/^Error \(unavailable\): .*retry in 5 s/);
        seen.push('tool-unavailable');
      }
    }
    console.log(`Database down: REST ${statuses.join(',')}; MCP ${seen.join(',')}`);

    await relay.restore();
    const deadline = Date.now() + 20_000;
    let after = await rest.post(`/v1/projects/${project}/memories`, { content: 'PostgreSQL is back' });
    while (after.status === 503 && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      after = await rest.post(`/v1/projects/${project}/memories`, { content: 'PostgreSQL is back' });
    }
    expect(after.status).toBe(201);
    expect((await callTool(mcp, 'memory_store', { content: 'MCP is back' })).isError).toBe(false);
  });
});
