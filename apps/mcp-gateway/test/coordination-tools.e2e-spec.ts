import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  connectClient,
  type GatewayWorld,
  startGatewayWorld,
  type TenantWithProjects,
  tenantWithProjects,
  tokenFor,
  type TokenRequest,
} from './gateway-harness';

const TOOLS = ['broadcast_post', 'broadcast_read', 'broadcast_ack', 'broadcast_verify'];

/** The coordination channel over MCP: two agents and an orchestrator coordinating a task (issue 14 §3). */
describe('MCP coordination tools', () => {
  let world: GatewayWorld;
  let team: TenantWithProjects;
  let outsiders: TenantWithProjects;
  const clients: Client[] = [];

  /** Connects and lists tools first: the SDK client then checks every structuredContent against outputSchema. */
  async function connect(tenant: string, body: TokenRequest): Promise<Client> {
    const client = await connectClient(world.mcpUrl, await tokenFor(world, tenant, body));
    await client.listTools();
    clients.push(client);
    return client;
  }

  const member = (role: string, agentId: string | undefined, project = team.projects[0]): TokenRequest => ({
    role,
    projects: [project],
    defaultProject: project,
    agentId,
    toolsets: ['coordination', 'context'],
  });

  beforeAll(async () => {
    world = await startGatewayWorld({ overrides: { BROADCAST_RATE_PER_MINUTE: '6' } });
    team = await tenantWithProjects(world, 2);
    outsiders = await tenantWithProjects(world, 1);
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await world?.close();
  });

  it('lists the tools only with the coordination toolset, and broadcast_post to no reader', async () => {
    const plain = await connect(team.tenant.slug, { role: 'agent', projects: '*', agentId: 'plain' });
    const plainNames = (await plain.listTools()).tools.map((tool) => tool.name);
    for (const name of TOOLS) expect(plainNames).not.toContain(name);
    const agent = await connect(team.tenant.slug, member('agent', 'lister'));
    const tools = (await agent.listTools()).tools;
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(TOOLS));
    expect(tools.find((tool) => tool.name === 'broadcast_read')!.annotations).toMatchObject({ readOnlyHint: true });
    const reader = await connect(team.tenant.slug, member('reader', 'watcher'));
    const readerNames = (await reader.listTools()).tools.map((tool) => tool.name);
    expect(readerNames).toEqual(expect.arrayContaining(['broadcast_read', 'broadcast_verify']));
    expect(readerNames).not.toContain('broadcast_post');
    expect(readerNames).not.toContain('broadcast_ack');
    // A tool the role does not grant is refused at the protocol level, as if hidden.
    await expect(callTool(reader, 'broadcast_post', { type: 'STATUS', summary: 'hello' })).rejects.toThrow(
      /may not call broadcast_post/,
    );
  });

  it('lets an orchestrator and two agents coordinate a task, briefed through recall_context', async () => {
    const project = team.projects[1];
    const orchestrator = await connect(team.tenant.slug, member('orchestrator', 'orch', project));
    const alice = await connect(team.tenant.slug, member('agent', 'claude-code:alice', project));
    const bob = await connect(team.tenant.slug, member('agent', 'claude-code:bob', project));

    const denied = await callTool(alice, 'broadcast_post', {
      type: 'ASSIGN',
      summary: 'me',
      assignee: 'claude-code:alice',
    });
    expect(denied.isError).toBe(true);
    expect(denied.text).toContain('broadcast_type_forbidden');

    const assigned = await callTool(orchestrator, 'broadcast_post', {
      type: 'ASSIGN',
      summary: 'Fix the flaky retry test',
      assignee: 'claude-code:alice',
      files: ['src/billing/retry.spec.ts'],
    });
    expect(assigned.isError).toBe(false);
    expect(assigned.structured.message).toMatchObject({ seq: 1, type: 'ASSIGN', unverified: true });
    expect(assigned.text).toContain('[UNVERIFIED AGENT CONTENT from project');

    await callTool(bob, 'broadcast_post', { type: 'STATUS', summary: 'Reviewing the billing PR' });
    const briefing = await callTool(alice, 'recall_context', {});
    expect(briefing.structured.channel.addressedToYou).toEqual([
      expect.objectContaining({ seq: 1, type: 'ASSIGN', author: 'orch', summary: 'Fix the flaky retry test' }),
    ]);
    expect(briefing.structured.channel.latestStatus).toEqual([
      expect.objectContaining({ seq: 2, author: 'claude-code:bob' }),
    ]);
    expect(briefing.text).toContain('#1 ASSIGN by orch → claude-code:alice: Fix the flaky retry test');
    expect(briefing.text).toContain('[UNVERIFIED AGENT CONTENT from project');

    const unread = await callTool(alice, 'broadcast_read', { assignee: 'claude-code:alice', unacknowledged: true });
    expect(unread.structured.items.map((item: { seq: number }) => item.seq)).toEqual([1]);
    expect(unread.structured.notice).toMatch(/unverified agent content/i);
    expect(unread.text).toMatch(/^\[UNVERIFIED AGENT CONTENT from project .*\]$/m);
    expect((await callTool(alice, 'broadcast_ack', { seqs: [1] })).structured).toEqual({
      acknowledged: [1],
      already: [],
    });
    expect((await callTool(alice, 'recall_context', {})).structured.channel.addressedToYou).toEqual([]);

    const done = await callTool(alice, 'broadcast_post', {
      type: 'PROPOSED',
      summary: 'Fixed: retry waits',
      replyTo: 1,
    });
    expect(done.structured.message).toMatchObject({ seq: 3, replyTo: 1, author: { agentId: 'claude-code:alice' } });
    const merged = await callTool(orchestrator, 'broadcast_post', { type: 'MERGE', summary: 'Merged', replyTo: 3 });
    expect(merged.isError).toBe(false);

    const all = await callTool(bob, 'broadcast_read', { types: ['ASSIGN', 'MERGE'] });
    expect(all.structured.items.map((item: { seq: number }) => item.seq)).toEqual([1, 4]);
    const verified = await callTool(bob, 'broadcast_verify', {});
    expect(verified.structured).toMatchObject({ valid: true, entries: 4, firstInvalidSeq: null });
    expect(verified.text).toContain('holds: 4 message(s)');
  });

  it('refuses traversal paths, oversized summaries and replies to nothing', async () => {
    const agent = await connect(team.tenant.slug, member('agent', 'validator'));
    for (const files of [['../../etc/passwd'], ['/etc/shadow'], ['a\u0000b']]) {
      const refused = await callTool(agent, 'broadcast_post', { type: 'STATUS', summary: 'x', files });
      expect(refused).toMatchObject({ isError: true });
      expect(refused.text).toContain('invalid_arguments');
    }
    expect((await callTool(agent, 'broadcast_post', { type: 'STATUS', summary: 'y'.repeat(1001) })).isError).toBe(true);
    const orphan = await callTool(agent, 'broadcast_post', { type: 'STATUS', summary: 'z', replyTo: 424242 });
    expect(orphan.isError).toBe(true);
    expect(orphan.text).toContain('not_found');
  });

  it('asks for the channel key as channelKey, refusing a wrong one like a missing one', async () => {
    const project = team.projects[0];
    const key = 'channel key for the MCP test';
    const orchestratorToken = await tokenFor(world, team.tenant.slug, member('orchestrator', 'keeper'));
    const keySet = await world.admin.as(orchestratorToken).request('PUT', `/v1/projects/${project}/broadcasts/key`, {
      channelKey: key,
    });
    expect(keySet.status).toBe(200);
    const agent = await connect(team.tenant.slug, member('agent', 'keyholder'));
    const missing = await callTool(agent, 'broadcast_post', { type: 'STATUS', summary: 'no key' });
    const wrong = await callTool(agent, 'broadcast_post', {
      type: 'STATUS',
      summary: 'bad key',
      channelKey: 'x'.repeat(28),
    });
    expect(missing.isError).toBe(true);
    expect(wrong.text).toContain('channel_key_invalid');
    expect(wrong.text).toBe(missing.text);
    // The key stays out of the audit entry: two calls that differ only in it have one argument digest.
    const auditor = await connect(team.tenant.slug, member('agent', 'digest-check'));
    for (const guess of ['first wrong guess of the key', 'second wrong guess of the key']) {
      await callTool(auditor, 'broadcast_post', { type: 'STATUS', summary: 'same', channelKey: guess });
    }
    type AuditRow = { action: string; details: { agentId?: string; argsDigest?: string } };
    let audited: AuditRow[] = [];
    for (const deadline = Date.now() + 5_000; audited.length < 2 && Date.now() < deadline;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      const page = await world.admin.get<{ items: AuditRow[] }>(`/v1/tenants/${team.tenant.slug}/audit?limit=500`);
      audited = page.body.items.filter(
        (row) => row.action === 'mcp.broadcast_post' && row.details.agentId === 'digest-check',
      );
    }
    expect(audited).toHaveLength(2);
    expect(audited[0].details.argsDigest).toBe(audited[1].details.argsDigest);
    expect(JSON.stringify(audited)).not.toContain('wrong guess');

    const right = await callTool(agent, 'broadcast_post', { type: 'STATUS', summary: 'keyed', channelKey: key });
    expect(right.isError).toBe(false);
    expect(right.structured.message.summary).toBe('keyed');
    await world.admin.as(orchestratorToken).delete(`/v1/projects/${project}/broadcasts/key`);
  });

  it('spends a per-agent post budget, and says when to retry', async () => {
    const agent = await connect(team.tenant.slug, member('agent', 'chatty'));
    for (let i = 0; i < 6; i += 1) {
      expect((await callTool(agent, 'broadcast_post', { type: 'STATUS', summary: `tick ${i}` })).isError).toBe(false);
    }
    const refused = await callTool(agent, 'broadcast_post', { type: 'STATUS', summary: 'one too many' });
    expect(refused.isError).toBe(true);
    expect(refused.text).toMatch(/rate_limited.*retry in \d+ s/);
    expect((await callTool(agent, 'broadcast_read', {})).isError).toBe(false);
  });

  it("keeps other projects' and tenants' channels out of reach", async () => {
    const scoped = await connect(team.tenant.slug, member('agent', 'scoped', team.projects[0]));
    const elsewhere = await callTool(scoped, 'broadcast_read', { project: team.projects[1] });
    expect(elsewhere.isError).toBe(true);
    expect(elsewhere.text).toContain('project_forbidden');
    const stranger = await connect(outsiders.tenant.slug, {
      role: 'admin',
      projects: '*',
      toolsets: ['coordination'],
      agentId: 'stranger',
    });
    const missing = await callTool(stranger, 'broadcast_read', { project: team.projects[1] });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('not_found');
    expect((await callTool(stranger, 'broadcast_ack', { project: team.projects[1], seqs: [1] })).isError).toBe(true);
  });
});
