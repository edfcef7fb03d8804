import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectClient, type GatewayWorld, startGatewayWorld, tenantWithProjects, tokenFor } from './gateway-harness';

/** Monday 10 June 2024, 15:00 UTC: "last Saturday" is 8 June. */
const AS_OF = '2024-06-10T15:00:00Z';

interface RecallContent {
  results: { memory: { content: string; occurredAt: string }; explain?: { temporal?: { closeness: number } } }[];
  report: { temporal?: { range?: Record<string, unknown>; reference: string } };
}

/** occurredAt through memory_store and memory_update, asOf and dated questions through memory_recall. */
describe('memories in time over MCP', () => {
  let world: GatewayWorld;
  let agent: Client;
  let stranger: Client;

  const call = (client: Client, name: string, args: Record<string, unknown>) =>
    client.callTool({ name, arguments: args });
  const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { text: string }[])[0].text;

  beforeAll(async () => {
    world = await startGatewayWorld();
    const acme = await tenantWithProjects(world, 1);
    const other = await tenantWithProjects(world, 1);
    agent = await connectClient(
      world.mcpUrl,
      await tokenFor(world, acme.tenant.slug, {
        role: 'agent',
        projects: '*',
        defaultProject: acme.projects[0],
        agentId: 'agent-t',
      }),
    );
    stranger = await connectClient(
      world.mcpUrl,
      await tokenFor(world, other.tenant.slug, {
        role: 'agent',
        projects: '*',
        defaultProject: other.projects[0],
        agentId: 'agent-s',
      }),
    );
    for (const [content, occurredAt] of [
      ['Repaired the bike and cleaned the garage', '2024-06-08T10:00:00Z'],
      ['Went hiking in the hills with Sam', '2024-06-01T10:00:00Z'],
      ['The last deploy of the billing API failed on a migration', '2024-06-10T09:00:00Z'],
    ]) {
      const stored = await call(agent, 'memory_store', { content, occurredAt });
      expect(text(stored)).toMatch(/^Stored /);
    }
    expect(
      (await call(stranger, 'memory_store', { content: 'Painted the fence', occurredAt: '2024-06-08T09:00:00Z' }))
        .isError,
    ).toBeFalsy();
  });
  afterAll(async () => {
    await agent?.close();
    await stranger?.close();
    await world?.close();
  });

  it('stores and updates occurredAt, and shows it', async () => {
    const stored = await call(agent, 'memory_store', {
      content: 'Switched the docs site to Astro',
      occurredAt: '2024-04-02T08:00:00+02:00',
    });
    const memory = (stored.structuredContent as { memory: { id: string; occurredAt: string } }).memory;
    expect(memory.occurredAt).toBe('2024-04-02T06:00:00.000Z');
    const updated = await call(agent, 'memory_update', { id: memory.id, occurredAt: '2024-04-03T00:00:00Z' });
    expect(updated.isError).toBeFalsy();
    expect(text(updated)).toMatch(/occurredAt changed/);
    const got = await call(agent, 'memory_get', { id: memory.id });
    expect((got.structuredContent as { occurredAt: string }).occurredAt).toBe('2024-04-03T00:00:00.000Z');
    expect(text(got)).toMatch(/occurred 2024-04-03/);
  });

  it('recalls last Saturday first with asOf, and says how it read the date', async () => {
    const result = await call(agent, 'memory_recall', {
      query: 'what did I do last Saturday?',
      asOf: AS_OF,
      explain: true,
    });
    expect(result.isError).toBeFalsy();
    const content = result.structuredContent as RecallContent;
    expect(content.results[0].memory.content).toBe('Repaired the bike and cleaned the garage');
    expect(content.results[0].explain?.temporal?.closeness).toBe(1);
    expect(content.results.map((hit) => hit.memory.content)).not.toContain('Painted the fence');
    expect(content.report.temporal?.range).toMatchObject({
      expression: 'last Saturday',
      from: '2024-06-08T00:00:00.000Z',
      to: '2024-06-09T00:00:00.000Z',
      applied: 'boost',
    });
    expect(text(result)).toMatch(/^1\. \[fact i3\] Repaired the bike/m);
    expect(text(result)).toContain('dates (as of 2024-06-10): "last Saturday" → 2024-06-08 (boost)');
  });

  it('keeps another tenant to itself', async () => {
    const result = await call(stranger, 'memory_recall', { query: 'what did I do last Saturday?', asOf: AS_OF });
    const content = result.structuredContent as RecallContent;
    expect(content.results.map((hit) => hit.memory.content)).toEqual(['Painted the fence']);
  });

  it.each([
    ['memory_store', { content: 'x', occurredAt: 'last Tuesday' }, /occurredAt: must be an ISO 8601 date-time/],
    ['memory_store', { content: 'x', occurredAt: '2999-01-01T00:00:00Z' }, /occurredAt: must not be more than a day/],
    ['memory_recall', { query: 'x', asOf: '2024-06-10' }, /asOf: must be an ISO 8601 date-time/],
    ['memory_recall', { query: 'x', asOf: '2999-06-10T00:00:00Z' }, /asOf: must not be more than a day/],
  ])('%s refuses %p with a clear tool error', async (name, args, message) => {
    const result = await call(agent, name, args);
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/^Error \(invalid_arguments\): Invalid arguments: /);
    expect(text(result)).toMatch(message);
  });
});
