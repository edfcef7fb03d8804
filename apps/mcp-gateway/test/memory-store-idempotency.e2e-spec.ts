import { TestClient } from '@cairn/testing';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  connectClient,
  type GatewayWorld,
  startGatewayWorld,
  tenantWithProjects,
  tokenFor,
} from './gateway-harness';

/**
 * memory_store's `idempotencyKey`: the retry of a call whose answer was lost returns the
 * memory the first call stored; a reused key with other arguments is refused. REST and MCP
 * share the keys of a token, so a client may retry through either door.
 */
describe('memory_store with an idempotency key', () => {
  let world: GatewayWorld;
  let project: string;
  let token: string;
  let agent: Client;
  let rest: TestClient;

  beforeAll(async () => {
    world = await startGatewayWorld();
    const acme = await tenantWithProjects(world, 1);
    project = acme.projects[0];
    token = await tokenFor(world, acme.tenant.slug, { role: 'agent', projects: [project], agentId: 'agent-i' });
    agent = await connectClient(world.mcpUrl, token);
    rest = new TestClient(world.api).as(token);
  });
  afterAll(async () => {
    await agent?.close();
    await world?.close();
  });

  const countOf = async (content: string) =>
    ((await rest.get(`/v1/projects/${project}/memories?limit=100`)).body.items as { content: string }[]).filter(
      (memory) => memory.content === content,
    ).length;

  it('returns the original memory on a repeat, and says so', async () => {
    const args = { content: 'The staging database is restored nightly', idempotencyKey: 'mcp-key-1' };
    const first = await callTool(agent, 'memory_store', args);
    expect(first.isError).toBe(false);
    expect(first.text).toMatch(/^Stored /);
    const again = await callTool(agent, 'memory_store', args);
    expect(again.isError).toBe(false);
    expect(again.structured.memory.id).toBe(first.structured.memory.id);
    expect(again.text).toMatch(/^Already stored \(same idempotencyKey\): /);
    expect(await countOf(args.content)).toBe(1);
  });

  it('refuses other arguments under a used key', async () => {
    await callTool(agent, 'memory_store', { content: 'Original under the key', idempotencyKey: 'mcp-key-2' });
    const other = await callTool(agent, 'memory_store', { content: 'Different content', idempotencyKey: 'mcp-key-2' });
    expect(other.isError).toBe(true);
    expect(other.text).toMatch(/^Error \(idempotency_key_reused\): /);
    expect(await countOf('Different content')).toBe(0);
  });

  it('shares keys between MCP and REST for one token', async () => {
    const content = 'Stored over MCP, retried over REST';
    const first = await callTool(agent, 'memory_store', { content, idempotencyKey: 'cross-door' });
    const retried = await rest.request(
      'POST',
      `/v1/projects/${project}/memories`,
      { content },
      {
        'idempotency-key': 'cross-door',
      },
    );
    expect(retried.status).toBe(201);
    expect(retried.headers['idempotency-replayed']).toBe('true');
    expect(retried.body.memory.id).toBe(first.structured.memory.id);
  });

  it('refuses a key with spaces as invalid arguments', async () => {
    const bad = await callTool(agent, 'memory_store', { content: 'Bad key over MCP', idempotencyKey: 'has space' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toMatch(/^Error \(invalid_arguments\): .*idempotencyKey/);
  });
});
