import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DataSource } from 'typeorm';
import {
  callTool,
  connectClient,
  type GatewayWorld,
  startGatewayWorld,
  tenantWithProjects,
  tokenFor,
} from './gateway-harness';

/**
 * Memory scopes over MCP, through the SDK's real client: a private note stays its author's in
 * every memory tool, the briefing and the memory resource; a share opens it to one agent; team
 * memories reach another project; agents cannot store team memories; results say each scope.
 */
describe('memory scopes over MCP', () => {
  let world: GatewayWorld;
  let schema: string;
  let p0: string;
  let p1: string;
  let alice: Client;
  let bob: Client;
  /** An agent of p1 only. */
  let carol: Client;
  let orchestrator: Client;
  const clients: Client[] = [];

  beforeAll(async () => {
    world = await startGatewayWorld();
    const acme = await tenantWithProjects(world, 2);
    schema = acme.tenant.schema;
    [p0, p1] = acme.projects;
    const connect = async (body: Parameters<typeof tokenFor>[2]) => {
      const client = await connectClient(world.mcpUrl, await tokenFor(world, acme.tenant.slug, body));
      clients.push(client);
      return client;
    };
    alice = await connect({ role: 'agent', projects: [p0], agentId: 'mcp:alice' });
    bob = await connect({ role: 'agent', projects: [p0], agentId: 'mcp:bob' });
    carol = await connect({ role: 'agent', projects: [p1], agentId: 'mcp:carol' });
    orchestrator = await connect({ role: 'orchestrator', projects: '*', defaultProject: p0, agentId: 'mcp:lead' });
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await world?.close();
  });

  const sql = (query: string, params: unknown[] = []) =>
    world.api.get(DataSource).query(query.replaceAll('$schema', `"${schema}"`), params);
  const ok = async (client: Client, name: string, args: Record<string, unknown>) => {
    const outcome = await callTool(client, name, args);
    if (outcome.isError) throw new Error(`${name} failed: ${outcome.text}`);
    return outcome;
  };
  const recalledIds = async (client: Client, query: string) =>
    (await ok(client, 'memory_recall', { query, mode: 'keyword' })).structured.results.map(
      (hit: { memory: { id: string } }) => hit.memory.id,
    );
  const listedIds = async (client: Client) =>
    (await ok(client, 'memory_list', { limit: 100 })).structured.items.map((item: { id: string }) => item.id);

  it('keeps a private note to its author in every tool, and a share opens it to one agent', async () => {
    await ok(bob, 'recall_context', {});
    await sql(`UPDATE $schema.agent_sessions SET last_seen_at = now() - interval '1 hour'`);
    const stored = await ok(alice, 'memory_store', {
      content: 'Platypus: I think the cache is wrong',
      scope: 'private',
    });
    const memory = stored.structured.memory;
    expect(memory.scope).toBe('private');
    const open = (await ok(alice, 'memory_store', { content: 'Platypus cache uses Redis' })).structured.memory;
    expect(open.scope).toBe('project');
    await ok(alice, 'memory_link', { id: open.id, toId: memory.id, type: 'related_to' });

    expect((await ok(alice, 'memory_get', { id: memory.id })).structured.scope).toBe('private');
    expect(await recalledIds(alice, 'platypus cache')).toContain(memory.id);

    for (const tool of ['memory_get', 'memory_history', 'memory_related']) {
      const refused = await callTool(bob, tool, { id: memory.id });
      expect(refused.isError).toBe(true);
      expect(refused.text).toMatch(/not found/i);
    }
    expect(await recalledIds(bob, 'platypus cache')).toEqual([open.id]);
    expect(await listedIds(bob)).not.toContain(memory.id);
    expect((await ok(bob, 'memory_related', { id: open.id })).structured.items).toEqual([]);
    const briefing = (await ok(bob, 'recall_context', {})).structured;
    expect(briefing.newMemories.map((item: { id: string }) => item.id)).toEqual([open.id]);
    expect(briefing.newMemories[0].scope).toBe('project');
    await expect(bob.readResource({ uri: `cairn://memories/${memory.id}` })).rejects.toThrow(/Memory not found$/);
    expect((await alice.readResource({ uri: `cairn://memories/${memory.id}` })).contents).toHaveLength(1);

    await sql(
      `INSERT INTO $schema.memory_shares (id, memory_id, grantee_agent_id, permission)
       VALUES (gen_random_uuid(), $1, 'mcp:bob', 'read')`,
      [memory.id],
    );
    expect((await ok(bob, 'memory_get', { id: memory.id })).structured.scope).toBe('private');
    expect(await recalledIds(bob, 'platypus cache')).toContain(memory.id);
  });

  it('shows team memories in another project and refuses team from an agent', async () => {
    const refused = await callTool(alice, 'memory_store', { content: 'Team by the back door', scope: 'team' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/orchestrator or an admin/);
    const team = (
      await ok(orchestrator, 'memory_store', { content: 'Kiwi rule: every service has a runbook', scope: 'team' })
    ).structured.memory;
    expect(team).toMatchObject({ scope: 'team', project: p0 });
    expect(await recalledIds(carol, 'kiwi runbook')).toContain(team.id);
    expect((await ok(carol, 'memory_get', { id: team.id })).structured).toMatchObject({ scope: 'team', project: p0 });
    expect(p1).not.toBe(p0);
  });
});
