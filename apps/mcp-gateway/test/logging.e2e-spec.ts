import { Writable } from 'node:stream';
import pino from 'pino';
import {
  callTool,
  connectClient,
  type GatewayWorld,
  startGatewayWorld,
  tenantWithProjects,
  tokenFor,
} from './gateway-harness';

/** What an operator reads about MCP traffic: one line per call, naming the tool, never a token or an argument. */
describe('gateway logs', () => {
  let world: GatewayWorld;
  const lines: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) lines.push(JSON.parse(line));
        done();
      },
    });
    world = await startGatewayWorld({ gatewayLogger: pino({ level: 'info', base: { app: 'mcp-gateway' } }, sink) });
  });
  afterAll(() => world.close());

  it('writes one line per tool call with the tool, project, outcome and tenant, and nothing of the arguments', async () => {
    const { tenant, projects } = await tenantWithProjects(world, 1);
    const token = await tokenFor(world, tenant.slug, { role: 'agent', projects, agentId: 'logger-test' });
    const client = await connectClient(world.mcpUrl, token);
    const secretish = 'zebra-quartz-marker-7731';
    try {
      lines.length = 0;
      const stored = await callTool(client, 'memory_store', { content: `Remember ${secretish}` });
      expect(stored.isError).toBe(false);
      const refused = await callTool(client, 'memory_get', { id: 'not-a-uuid' });
      expect(refused.isError).toBe(true);
    } finally {
      await client.close();
    }
    const calls = lines.filter((line) => line.tool !== undefined);
    expect(calls).toEqual([
      expect.objectContaining({
        msg: 'request completed',
        tool: 'memory_store',
        project: projects[0],
        outcome: 'success',
        tenantId: tenant.id,
        status: 200,
        correlationId: expect.any(String),
        toolMs: expect.any(Number),
      }),
      expect.objectContaining({ msg: 'request completed', tool: 'memory_get', outcome: 'invalid_arguments' }),
    ]);
    expect(lines.filter((line) => line.msg === 'tool call')).toEqual([]);
    const all = JSON.stringify(lines);
    expect(all).not.toContain(secretish);
    expect(all).not.toContain(token);
  });
});
