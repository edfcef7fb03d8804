import {
  connectClient,
  type GatewayWorld,
  postRaw,
  rpc,
  startGatewayWorld,
  tenantWithProjects,
  tokenFor,
} from './gateway-harness';

describe('MCP gateway smoke', () => {
  let world: GatewayWorld;
  beforeAll(async () => {
    world = await startGatewayWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  it('stores and recalls through the SDK client', async () => {
    const { tenant, projects } = await tenantWithProjects(world, 1);
    const token = await tokenFor(world, tenant.slug, {
      role: 'agent',
      projects: [projects[0]],
      agentId: 'claude-code:t',
    });
    const client = await connectClient(world.mcpUrl, token);
    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['memory_store', 'memory_recall']));
    const stored = await client.callTool({
      name: 'memory_store',
      arguments: { content: 'The API uses Fastify, not Express', category: 'architecture' },
    });
    expect(stored.isError).toBeFalsy();
    const recalled = await client.callTool({
      name: 'memory_recall',
      arguments: { query: 'which web framework does the API use?' },
    });
    expect(recalled.isError).toBeFalsy();
    expect((recalled.content as { text: string }[])[0].text).toContain('Fastify');
    await client.close();
  });

  it("refuses a suspended tenant's token with 403 tenant_suspended, and takes it again once resumed", async () => {
    const { tenant, projects } = await tenantWithProjects(world, 1);
    const token = await tokenFor(world, tenant.slug, { role: 'agent', projects: [projects[0]] });
    const auth = { Authorization: `Bearer ${token}` };
    expect((await world.admin.post(`/v1/tenants/${tenant.slug}/suspend`)).status).toBe(200);
    const refused = await postRaw(world.mcpUrl, rpc('tools/list'), auth);
    expect(refused.status).toBe(403);
    expect(refused.json.error.message).toMatch(/suspended/);
    expect((await world.admin.post(`/v1/tenants/${tenant.slug}/resume`)).status).toBe(200);
    const client = await connectClient(world.mcpUrl, token);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
  });
});
