import { TestClient } from '@cairn/testing';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DedicatedRedis } from '../../api/test/worker-resilience-harness';
import {
  callTool,
  connectClient,
  type GatewayWorld,
  startGatewayWorld,
  tenantWithProjects,
  tokenFor,
} from './gateway-harness';

/**
 * Redis stops under a running api and gateway. Rate limits, audit and embedding jobs all
 * used to reach Redis on the request path; before they failed fast, every MCP call waited
 * out the client's reconnect backoff (0.6 s growing to 11 s a call), so twenty calls took
 * minutes. Now they answer at once, writes commit with their embedding deferred, and both
 * apps stay ready with Redis reported as degraded.
 */
describe('MCP and REST with Redis stopped', () => {
  let world: GatewayWorld;
  let redis: DedicatedRedis;
  let mcp: Client;
  let rest: TestClient;
  let project: string;

  beforeAll(async () => {
    redis = await DedicatedRedis.create();
    world = await startGatewayWorld({ overrides: { REDIS_URL: redis.url } });
    const acme = await tenantWithProjects(world, 1);
    project = acme.projects[0];
    const token = await tokenFor(world, acme.tenant.slug, { role: 'agent', projects: [project], agentId: 'agent-r' });
    mcp = await connectClient(world.mcpUrl, token);
    rest = new TestClient(world.api).as(token);
    // With Redis up, a store queues its embedding job.
    const warm = await callTool(mcp, 'memory_store', { content: 'Redis is up for now' });
    expect(warm.structured.embedding).toBe('queued');
    await redis.stop();
  });
  afterAll(async () => {
    await mcp?.close();
    await world?.close();
    await redis?.destroy();
  });

  it('answers twenty MCP calls and twenty REST calls promptly; writes commit with embedding deferred', async () => {
    const started = Date.now();
    const ids = new Set<string>();
    for (let i = 0; i < 10; i += 1) {
      const stored = await callTool(mcp, 'memory_store', { content: `Written over MCP while Redis is down ${i}` });
      expect(stored.isError).toBe(false);
      expect(stored.structured.embedding).toBe('deferred');
      ids.add(stored.structured.memory.id);
      const recalled = await callTool(mcp, 'memory_recall', { query: 'Redis is down' });
      expect(recalled.isError).toBe(false);
    }
    for (let i = 0; i < 10; i += 1) {
      const stored = await rest.post(`/v1/projects/${project}/memories`, { content: `Written over REST ${i}` });
      expect(stored.status).toBe(201);
      expect(stored.body.embedding).toBe('deferred');
      ids.add(stored.body.memory.id);
      expect((await rest.get(`/v1/projects/${project}/memories?limit=5`)).status).toBe(200);
    }
    const elapsed = Date.now() - started;
    console.log(`Redis down: 40 calls in ${elapsed} ms`);
    // Waiting out the reconnect backoff cost seconds per call (about 3 minutes for these
    // 40); the bound is generous for a loaded machine and still far below that.
    expect(elapsed).toBeLessThan(30_000);
    expect(ids.size).toBe(20);
    const listed = await rest.get(`/v1/projects/${project}/memories?limit=100`);
    expect(listed.body.items).toHaveLength(21);
  });

  it('keeps /readyz at 200 with Redis listed as degraded on the api and the gateway', async () => {
    for (const app of [world.api, world.gateways[0].app]) {
      const ready = await new TestClient(app).get('/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ status: 'ready', degraded: ['redis'] });
      expect(ready.body.checks.redis.ok).toBe(false);
      expect(ready.body.checks.database.ok).toBe(true);
    }
  });
});
