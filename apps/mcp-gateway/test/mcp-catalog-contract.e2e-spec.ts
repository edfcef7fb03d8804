import { join } from 'node:path';
import { TOOLSETS } from '@cairn/access';
import { expectCommittedFile, prettyJson } from '@cairn/testing';
import { connectClient, type GatewayWorld, startGatewayWorld, tenantWithProjects, tokenFor } from './gateway-harness';

/**
 * What an MCP client sees is a public contract (agent configs and prompts name these tools
 * and arguments). The full catalogue, as an admin with every toolset receives it over the
 * SDK client, is committed as apps/mcp-gateway/contract/mcp-catalog.json.
 */
describe('the MCP catalogue contract', () => {
  let world: GatewayWorld;
  beforeAll(async () => {
    world = await startGatewayWorld();
  });
  afterAll(() => world?.close());

  it('is exactly the committed tools, resource templates and prompts', async () => {
    const { tenant } = await tenantWithProjects(world, 1);
    const token = await tokenFor(world, tenant.slug, { role: 'admin', toolsets: [...TOOLSETS] });
    const client = await connectClient(world.mcpUrl, token);
    try {
      const byName = <T extends { name: string }>(items: T[]) => items.sort((a, b) => a.name.localeCompare(b.name));
      const catalogue = {
        tools: byName((await client.listTools()).tools),
        resourceTemplates: byName((await client.listResourceTemplates()).resourceTemplates),
        prompts: byName((await client.listPrompts()).prompts),
      };
      expectCommittedFile(join(__dirname, '..', 'contract', 'mcp-catalog.json'), prettyJson(catalogue));
    } finally {
      await client.close();
    }
  });
});
