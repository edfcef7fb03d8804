import { createServer, type Server, type Socket, connect } from 'node:net';
import { ToolRegistry } from '@cairn/mcp';
import { TenantDb, TenantTransaction } from '@cairn/tenancy';
import { TestClient } from '@cairn/testing';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { Client as PgClient } from 'pg';
import { z } from 'zod';
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

  it('answers `unavailable` with a structured retry delay when the server ends a transaction between statements (pg_ctl stop)', async () => {
    // What `pg_ctl stop -m fast` does to a recall between its last statement and COMMIT: the
    // backend is terminated (57P01) while the transaction idles, TypeORM releases the broken
    // connection, and COMMIT then fails with QueryRunnerAlreadyReleasedError (answered
    // internal_error before). A probe tool makes the moment exact: it terminates its own backend.
    const gateway = world.gateways[0].app;
    const tx = gateway.get(TenantTransaction);
    const db = gateway.get(TenantDb);
    gateway.get(ToolRegistry).add(
      {
        name: 'probe_backend_terminated',
        title: 'Probe',
        toolset: 'core',
        permission: 'memory.read',
        scope: 'session',
        description: 'Test probe: its transaction loses its connection before COMMIT',
        input: z.object({}),
        output: z.object({ done: z.boolean() }),
        annotations: { readOnlyHint: true },
      },
      {
        run: () =>
          tx.run(async () => {
            const [{ pid }] = await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
            const killer = new PgClient({ connectionString: world.database.url });
            await killer.connect();
            try {
              await killer.query('SELECT pg_terminate_backend($1)', [pid]);
            } finally {
              await killer.end();
            }
            // The FATAL message reaches the idle client; the COMMIT follows.
            await new Promise((resolve) => setTimeout(resolve, 300));
            return { structured: { done: true }, text: 'done' };
          }),
      },
    );
    const raw = await postRaw(world.mcpUrl, rpc('tools/call', { name: 'probe_backend_terminated', arguments: {} }, 1), {
      Authorization: `Bearer ${token}`,
    });
    expect(raw.status).toBe(200);
    expect(raw.json.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringMatching(/^Error \(unavailable\): .*retry in 5 s/) }],
      // The delay a program reads without parsing the prose.
      _meta: { 'cairn/error': { code: 'unavailable', retryAfterSeconds: 5 } },
    });
    // The next call gets a fresh connection.
    expect((await callTool(mcp, 'memory_recall', { query: 'PostgreSQL' })).isError).toBe(false);
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
        expect(raw.json.result._meta['cairn/error']).toEqual({ code: 'unavailable', retryAfterSeconds: 5 });
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
