import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectClient, type GatewayWorld, startGatewayWorld, tenantWithProjects, tokenFor } from './gateway-harness';

/** memory_recall's minRelevance over MCP: the same threshold as REST, stated in the text an agent reads. */
describe('memory_recall with a relevance threshold', () => {
  let world: GatewayWorld;
  let agent: Client;
  const call = (name: string, args: Record<string, unknown>) => agent.callTool({ name, arguments: args });
  const text = (result: Awaited<ReturnType<Client['callTool']>>) => (result.content as { text: string }[])[0].text;

  beforeAll(async () => {
    world = await startGatewayWorld();
    const acme = await tenantWithProjects(world, 1);
    agent = await connectClient(
      world.mcpUrl,
      await tokenFor(world, acme.tenant.slug, {
        role: 'agent',
        projects: '*',
        defaultProject: acme.projects[0],
        agentId: 'agent-r',
      }),
    );
    for (const content of ['Run the database migrations with npm run db:migrate', 'Deploy with make deploy-staging']) {
      expect((await call('memory_store', { content })).isError).toBeFalsy();
    }
  });
  afterAll(async () => {
    await agent?.close();
    await world?.close();
  });

  it('answers an unrelated question with nothing and says which threshold left what out', async () => {
    const result = await call('memory_recall', { query: 'write a haiku about autumn', minRelevance: 'default' });
    expect(result.isError).toBeFalsy();
    const structured = result.structuredContent as { results: unknown[]; report: { relevance: unknown } };
    expect(structured.results).toEqual([]);
    expect(structured.report.relevance).toMatchObject({ threshold: 0.33, source: 'default' });
    expect(text(result)).toMatch(/^No memories match "write a haiku about autumn", relevance ≥ 0\.33 \(default for /);
  });

  it('keeps the related memory, with its relevance in the structured copy', async () => {
    const result = await call('memory_recall', { query: 'how do I run the migrations?', minRelevance: 'default' });
    const structured = result.structuredContent as { results: { memory: { content: string }; relevance: number }[] };
    expect(structured.results[0]?.memory.content).toBe('Run the database migrations with npm run db:migrate');
    expect(structured.results[0]?.relevance).toBeGreaterThanOrEqual(0.33);
    expect(text(result)).toMatch(/relevance ≥ 0\.33/);
  });

  it('rejects a threshold outside 0-1 as a tool error naming the argument', async () => {
    const result = await call('memory_recall', { query: 'migrations', minRelevance: 2 });
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('minRelevance');
  });
});
