import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  callTool,
  connectClient,
  type GatewayWorld,
  startGatewayWorld,
  type TenantWithProjects,
  tenantWithProjects,
  tokenFor,
  type ToolOutcome,
} from './gateway-harness';

const TOOLSETS = ['core', 'context', 'review', 'sharing', 'coordination'];

/**
 * Issue 14, "Done when": two agents and an orchestrator, each connected over MCP with its own
 * token, keep private notes, propose a note to the project and have it approved, share a
 * memory with one teammate, and coordinate a task through the channel: the whole team flow in
 * one story, every step through the gateway as a real client makes it.
 */
describe('a team of two agents and an orchestrator over MCP', () => {
  let world: GatewayWorld;
  let team: TenantWithProjects;
  let alice: Client;
  let bob: Client;
  let lead: Client;

  const connect = async (role: string, agentId: string): Promise<Client> => {
    const project = team.projects[0];
    const token = await tokenFor(world, team.tenant.slug, {
      role,
      projects: [project],
      defaultProject: project,
      agentId,
      toolsets: TOOLSETS,
    });
    const client = await connectClient(world.mcpUrl, token);
    // Listing first makes the SDK client check every structuredContent against its outputSchema.
    await client.listTools();
    return client;
  };

  async function ok(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolOutcome> {
    const outcome = await callTool(client, name, args);
    expect({ name, isError: outcome.isError, text: outcome.isError ? outcome.text : '' }).toEqual({
      name,
      isError: false,
      text: '',
    });
    return outcome;
  }
  const recalledIds = async (client: Client, query: string): Promise<string[]> =>
    (await ok(client, 'memory_recall', { query })).structured.results.map(
      (result: { memory: { id: string } }) => result.memory.id,
    );

  beforeAll(async () => {
    world = await startGatewayWorld();
    team = await tenantWithProjects(world, 1);
    alice = await connect('agent', 'claude-code:alice');
    bob = await connect('agent', 'cursor:bob');
    lead = await connect('orchestrator', 'lead');
  });
  afterAll(async () => {
    for (const client of [alice, bob, lead]) await client?.close();
    await world?.close();
  });

  it('keeps private notes, promotes one through review, shares another and coordinates a task', async () => {
    // 1. Private notes: each agent's own, invisible to the others until something changes that.
    const hunch = (
      await ok(alice, 'memory_store', {
        content: 'The payment retries fail because the idempotency key is regenerated on every attempt',
        scope: 'private',
        tags: ['payments'],
      })
    ).structured.memory;
    expect(hunch.scope).toBe('private');
    const handover = (
      await ok(alice, 'memory_store', {
        content: 'Handover for Bob: the payments sandbox credentials rotate on Mondays',
        scope: 'private',
      })
    ).structured.memory;
    const bobsNote = (
      await ok(bob, 'memory_store', { content: 'Bob suspects the webhook signature check', scope: 'private' })
    ).structured.memory;
    expect(await recalledIds(bob, 'payment retries idempotency key')).not.toContain(hunch.id);
    expect(await recalledIds(lead, 'payment retries idempotency key')).not.toContain(hunch.id);
    expect(await recalledIds(alice, 'webhook signature check')).not.toContain(bobsNote.id);
    expect((await callTool(bob, 'memory_get', { id: hunch.id })).text).toMatch(/not_found/);
    expect(await recalledIds(alice, 'payment retries idempotency key')).toContain(hunch.id);

    // 2. Alice proposes her note to the project; an agent cannot approve, the orchestrator does.
    const proposal = (await ok(alice, 'memory_promote', { id: hunch.id, toScope: 'project', note: 'confirmed' }))
      .structured;
    expect(proposal).toMatchObject({ status: 'pending', fromScope: 'private', toScope: 'project' });
    // The gateway refuses the call outright: the agent role lacks memory.review.
    await expect(
      callTool(bob, 'memory_review', { id: proposal.id, decision: 'approve', reason: 'yes' }),
    ).rejects.toThrow(/may not call memory_review/);
    const queue = (await ok(lead, 'review_queue')).structured.items;
    expect(queue).toContainEqual(expect.objectContaining({ id: proposal.id, kind: 'promotion' }));
    const decided = await ok(lead, 'memory_review', {
      id: proposal.id,
      decision: 'approve',
      reason: 'reproduced on staging',
    });
    expect(decided.structured).toMatchObject({ status: 'approved' });
    // Now the project's: Bob and the orchestrator find it; Alice hears of the decision once.
    expect(await recalledIds(bob, 'payment retries idempotency key')).toContain(hunch.id);
    expect((await ok(bob, 'memory_get', { id: hunch.id })).structured.scope).toBe('project');
    const briefing = await ok(alice, 'recall_context');
    expect(briefing.text).toContain(`promotion of ${hunch.id} to project approved: reproduced on staging`);
    expect((await ok(alice, 'recall_context')).text).not.toContain(`promotion of ${hunch.id}`);

    // 3. Alice shares her handover note with Bob alone: Bob reads it, the orchestrator does not.
    const share = (await ok(alice, 'memory_share', { id: handover.id, agentId: 'cursor:bob' })).structured;
    expect(share.grant).toMatchObject({ kind: 'share', memoryId: handover.id, permission: 'read' });
    const sharedWithBob = (await ok(bob, 'shared_with_me')).structured.items;
    expect(sharedWithBob.map((item: { memory: { id: string } }) => item.memory.id)).toContain(handover.id);
    expect((await ok(bob, 'memory_get', { id: handover.id })).structured.content).toContain('rotate on Mondays');
    expect((await callTool(lead, 'memory_get', { id: handover.id })).text).toMatch(/not_found/);
    expect((await callTool(bob, 'memory_update', { id: handover.id, importance: 5 })).text).toMatch(/not_owner/);
    expect((await ok(alice, 'my_shares')).structured.items).toContainEqual(
      expect.objectContaining({ id: share.grant.id }),
    );

    // 4. The orchestrator assigns the fix to Bob over the channel; Bob is briefed, acknowledges,
    // reports, and the orchestrator merges; the chain verifies.
    const assigned = (
      await ok(lead, 'broadcast_post', {
        type: 'ASSIGN',
        summary: 'Keep the idempotency key across payment retries',
        assignee: 'cursor:bob',
        files: ['src/payments/retry.ts'],
      })
    ).structured.message;
    expect((await callTool(alice, 'broadcast_post', { type: 'MERGE', summary: 'mine' })).isError).toBe(true);
    const bobsBriefing = await ok(bob, 'recall_context');
    expect(bobsBriefing.structured.channel.addressedToYou).toContainEqual(
      expect.objectContaining({ seq: assigned.seq, type: 'ASSIGN', author: 'lead' }),
    );
    await ok(bob, 'broadcast_ack', { seqs: [assigned.seq] });
    expect((await ok(bob, 'recall_context')).structured.channel.addressedToYou).toEqual([]);
    const done = (
      await ok(bob, 'broadcast_post', {
        type: 'PROPOSED',
        summary: 'Retry keeps the key; tests added',
        replyTo: assigned.seq,
      })
    ).structured.message;
    await ok(alice, 'broadcast_post', { type: 'STATUS', summary: 'Reviewing the retry change' });
    const merged = (await ok(lead, 'broadcast_post', { type: 'MERGE', summary: 'Merged', replyTo: done.seq }))
      .structured.message;
    const thread = (await ok(alice, 'broadcast_read', { types: ['ASSIGN', 'PROPOSED', 'MERGE'] })).structured.items;
    expect(thread.map((item: { seq: number }) => item.seq)).toEqual([assigned.seq, done.seq, merged.seq]);
    expect((await ok(lead, 'broadcast_verify')).structured).toMatchObject({ valid: true, firstInvalidSeq: null });

    // Private notes stayed private all along.
    expect(await recalledIds(alice, 'webhook signature check')).not.toContain(bobsNote.id);
    expect(await recalledIds(lead, 'webhook signature check')).not.toContain(bobsNote.id);
  });
});
