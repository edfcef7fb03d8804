import { eventually } from '@cairn/process-harness';
import { type TenantFixture } from '@cairn/testing';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DataSource } from 'typeorm';
import {
  connectClient,
  type GatewayWorld,
  startGatewayWorld,
  tenantWithProjects,
  tokenFor,
  toolOk as ok,
  toolRefused as refused,
} from './gateway-harness';

/**
 * The review toolset over MCP with the SDK's real client (issue 14 §1): two agents and an
 * orchestrator; a promotion proposed, refused to the wrong roles, approved, told to its author
 * in recall_context once; contradictions between the agents queued and resolved; the decision
 * audited without its content.
 */
describe('review tools over MCP', () => {
  let world: GatewayWorld;
  let tenant: TenantFixture;
  let p0: string;
  let p1: string;
  let agentA: Client;
  let agentB: Client;
  let orchestrator: Client;
  let reader: Client;
  /** An agent without the review toolset. */
  let plainAgent: Client;
  let stranger: Client;
  const clients: Client[] = [];

  beforeAll(async () => {
    world = await startGatewayWorld();
    const acme = await tenantWithProjects(world, 2);
    tenant = acme.tenant;
    [p0, p1] = acme.projects;
    const other = await tenantWithProjects(world, 1);
    const connect = async (slug: string, body: Parameters<typeof tokenFor>[2]) => {
      const client = await connectClient(world.mcpUrl, await tokenFor(world, slug, body));
      clients.push(client);
      return client;
    };
    const toolsets = ['core', 'context', 'review'];
    agentA = await connect(tenant.slug, { role: 'agent', projects: [p0], agentId: 'agent-a', toolsets });
    agentB = await connect(tenant.slug, { role: 'agent', projects: [p0], agentId: 'agent-b', toolsets });
    orchestrator = await connect(tenant.slug, {
      role: 'orchestrator',
      projects: '*',
      defaultProject: p0,
      agentId: 'lead',
      toolsets,
    });
    reader = await connect(tenant.slug, { role: 'reader', projects: [p0], toolsets });
    plainAgent = await connect(tenant.slug, { role: 'agent', projects: [p0], agentId: 'agent-c' });
    stranger = await connect(other.tenant.slug, {
      role: 'admin',
      projects: '*',
      defaultProject: other.projects[0],
      toolsets,
    });
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await world?.close();
  });

  /** A role the tool's permission does not grant: HTTP 403 before the tool runs. */
  async function forbidden(client: Client, name: string, args: Record<string, unknown>, permission: string) {
    await expect(client.callTool({ name, arguments: args })).rejects.toMatchObject({
      code: 403,
      message: expect.stringContaining(`may not call ${name} (needs ${permission})`),
    });
  }

  const store = async (client: Client, content: string) =>
    (await ok(client, 'memory_store', { content })).data as { memory: { id: string }; warnings: any[] };
  const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

  it('keeps the review tools out of the default toolsets and off a reader', async () => {
    for (const name of ['memory_promote', 'memory_review', 'review_queue']) {
      expect(await names(plainAgent)).not.toContain(name);
      expect(await names(orchestrator)).toContain(name);
    }
    expect(await names(reader)).not.toContain('memory_promote');
    const { memory } = await store(agentA, 'Readers cannot promote this');
    await forbidden(reader, 'memory_promote', { id: memory.id, toScope: 'team' }, 'memory.promote');
  });

  it('runs a promotion from proposal to approval and tells the author once', async () => {
    const { memory } = await store(agentA, 'Integration tests need docker compose up first');
    const proposed = await ok(agentA, 'memory_promote', { id: memory.id, toScope: 'team', note: 'all repos' });
    expect(proposed.data).toMatchObject({ status: 'pending', fromScope: 'project', toScope: 'team' });
    expect(proposed.text).toContain(proposed.data.id);
    expect(await refused(agentB, 'memory_promote', { id: memory.id, toScope: 'team' })).toContain('promotion_pending');

    // Agents neither approve nor read the queue.
    const args = { id: proposed.data.id, decision: 'approve', reason: 'ok' };
    await forbidden(agentB, 'memory_review', args, 'memory.review');
    await forbidden(agentA, 'review_queue', {}, 'memory.review');

    const queue = await ok(orchestrator, 'review_queue', {});
    expect(queue.data.items).toContainEqual(expect.objectContaining({ id: proposed.data.id }));
    expect(queue.text).toContain('unverified agent content by agent-a');
    expect(queue.text).toContain('Integration tests need docker compose up first');

    const decided = await ok(orchestrator, 'memory_review', { ...args, reason: 'every repo uses compose' });
    expect(decided.data).toMatchObject({ status: 'approved', decidedBy: { agentId: 'lead' } });
    expect(await refused(orchestrator, 'memory_review', args)).toContain('review_decided');

    const history = await ok(agentA, 'memory_history', { id: memory.id });
    expect(history.data.memory.version).toBe(2);
    expect(history.data.versions[0].snapshot).toMatchObject({ scope: 'project' });

    // recall_context tells the author in its text (the REST briefing also has it structured), once.
    const first = await ok(agentA, 'recall_context', {});
    expect(first.text).toContain('Reviews of your memories:');
    expect(first.text).toContain(`promotion of ${memory.id} to team approved: every repo uses compose`);
    expect((await ok(agentA, 'recall_context', {})).text).not.toContain('Reviews of your memories');
    expect((await ok(agentB, 'recall_context', {})).text).not.toContain('Reviews of your memories');

    // The decision is audited: who called memory_review, and a digest of the arguments only.
    const db = world.api.get(DataSource);
    const rows = await eventually(
      async () => {
        const found = await db.query<{ actor: string; outcome: string; details: Record<string, unknown> }[]>(
          `SELECT actor, outcome, details FROM "${tenant.schema}".audit_log WHERE action = 'mcp.memory_review'`,
        );
        return found.some((row) => row.outcome === 'success') ? found : undefined;
      },
      5_000,
      'the audit entry of memory_review',
    );
    expect(rows).toContainEqual(
      expect.objectContaining({ outcome: 'success', details: expect.objectContaining({ agentId: 'lead' }) }),
    );
    expect(JSON.stringify(rows)).not.toContain('every repo uses compose');
  });

  it('queues contradictions between the two agents and resolves them as asked', async () => {
    const old = await store(agentA, 'The API listens on port 8080');
    const young = await store(agentB, 'The API listens on port 9090');
    expect(young.warnings).toContainEqual(expect.objectContaining({ memoryId: old.memory.id, recorded: true }));
    const queue = await ok(orchestrator, 'review_queue', { limit: 200 });
    const review = queue.data.items.find((item: any) => item.memoryId === young.memory.id);
    expect(review).toMatchObject({ kind: 'contradiction', otherMemoryId: old.memory.id });
    expect(queue.text).toContain('contradiction (resolve: keep_both, supersede, reject_new)');

    const decided = await ok(orchestrator, 'memory_review', {
      id: review.id,
      resolution: 'supersede',
      reason: 'the port moved',
    });
    expect(decided.data).toMatchObject({ status: 'approved', resolution: 'supersede' });
    const retired = await ok(agentA, 'memory_get', { id: old.memory.id });
    expect(retired.data.supersededBy).toBe(young.memory.id);

    const mine = await store(agentA, 'Alice prefers tabs for indentation');
    const mineAgain = await store(agentA, 'Alice prefers spaces for indentation');
    expect(mineAgain.warnings).toContainEqual(expect.objectContaining({ memoryId: mine.memory.id }));
    const after = await ok(orchestrator, 'review_queue', { limit: 200 });
    expect(after.data.items.filter((item: any) => item.memoryId === mineAgain.memory.id)).toEqual([]);
  });

  it('refuses bad arguments and ids of another project or tenant', async () => {
    const { memory } = await store(agentA, 'Bad arguments never reach the queue');
    expect(await refused(agentA, 'memory_promote', { id: 'nope', toScope: 'team' })).toContain('invalid_arguments');
    expect(
      await refused(agentA, 'memory_promote', { id: memory.id, toScope: 'team', note: 'x'.repeat(1_001) }),
    ).toContain('invalid_arguments');
    expect(await refused(orchestrator, 'memory_review', { id: 'nope', decision: 'approve', reason: 'x' })).toContain(
      'invalid_arguments',
    );
    const proposed = await ok(agentA, 'memory_promote', { id: memory.id, toScope: 'team' });
    const elsewhere = { id: proposed.data.id, decision: 'approve', reason: 'x', project: p1 };
    expect(await refused(orchestrator, 'memory_review', elsewhere)).toContain('not_found');
    expect(await refused(orchestrator, 'memory_promote', { id: memory.id, toScope: 'team', project: p1 })).toContain(
      'not_found',
    );
    expect(
      await refused(stranger, 'memory_review', { id: proposed.data.id, decision: 'approve', reason: 'x' }),
    ).toContain('not_found');
    expect(await refused(stranger, 'memory_promote', { id: memory.id, toScope: 'team' })).toContain('not_found');
  });
});
