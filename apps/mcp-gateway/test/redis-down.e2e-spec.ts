import { eventually } from '../../api/test/process-harness';
import { TestClient } from '@cairn/testing';
import { DataSource } from 'typeorm';
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
  let schema: string;

  beforeAll(async () => {
    redis = await DedicatedRedis.create();
    world = await startGatewayWorld({ overrides: { REDIS_URL: redis.url } });
    const acme = await tenantWithProjects(world, 1);
    project = acme.projects[0];
    schema = acme.tenant.schema;
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

  it('withholds the answer of a call whose audit entry neither Redis nor the database took, and keeps the entry', async () => {
    const db = world.api.get(DataSource);
    const audited = async () =>
      Number(
        (
          await db.query<{ n: string }[]>(
            `SELECT count(*) AS n FROM "${schema}".audit_log WHERE action = 'mcp.memory_store' AND outcome = 'success'`,
          )
        )[0].n,
      );
    const before = await audited();
    // The audit table refuses inserts (as a database that dropped out would) while Redis is down.
    await db.query(`CREATE FUNCTION "${schema}".refuse_audit() RETURNS trigger LANGUAGE plpgsql AS
      $$ BEGIN RAISE EXCEPTION 'audit unavailable (test)'; END $$`);
    await db.query(`CREATE TRIGGER refuse_audit BEFORE INSERT ON "${schema}".audit_log
      FOR EACH ROW EXECUTE FUNCTION "${schema}".refuse_audit()`);
    const content = 'Stored while the audit log is unreachable';
    const withheld = await callTool(mcp, 'memory_store', { content, idempotencyKey: 'audit-withheld' });
    await db.query(`DROP TRIGGER refuse_audit ON "${schema}".audit_log`);
    await db.query(`DROP FUNCTION "${schema}".refuse_audit()`);
    expect(withheld.isError).toBe(true);
    expect(withheld.text).toMatch(/^Error \(unavailable\): The audit log is unreachable/);

    // The retry with the same key returns what the first call stored, once.
    const retried = await callTool(mcp, 'memory_store', { content, idempotencyKey: 'audit-withheld' });
    expect(retried.isError).toBe(false);
    const listed = await rest.get(`/v1/projects/${project}/memories?limit=100`);
    expect(listed.body.items.filter((item: { content: string }) => item.content === content)).toHaveLength(1);
    // Both calls are in the chain: the withheld one's entry was kept and retried, not dropped.
    await eventually(async () => ((await audited()) === before + 2 ? true : undefined), 15_000, 'both audit entries');
  });
});
