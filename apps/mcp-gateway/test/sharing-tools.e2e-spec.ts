import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
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
 * The sharing toolset through the SDK's real client: an owner shares with a teammate, the
 * teammate finds it in shared_with_me and (with write) updates it but cannot delete or
 * re-share it, a tag rule shares later memories, unsharing holds on the next call; and the
 * refusals (strangers, other projects and tenants, readers, bad arguments).
 */
describe('sharing tools over MCP', () => {
  let world: GatewayWorld;
  let p0: string;
  let p1: string;
  let alice: Client;
  let bob: Client;
  let carol: Client;
  let admin: Client;
  let reader: Client;
  let coreOnly: Client;
  let stranger: Client;
  const clients: Client[] = [];

  beforeAll(async () => {
    world = await startGatewayWorld();
    const acme = await tenantWithProjects(world, 2);
    [p0, p1] = acme.projects;
    const other = await tenantWithProjects(world, 1);
    const connect = async (tenant: string, body: Parameters<typeof tokenFor>[2]) => {
      const client = await connectClient(world.mcpUrl, await tokenFor(world, tenant, body));
      clients.push(client);
      return client;
    };
    const slug = acme.tenant.slug;
    const toolsets = ['core', 'sharing'];
    alice = await connect(slug, { role: 'agent', projects: [p0], agentId: 'claude-code:alice', toolsets });
    bob = await connect(slug, { role: 'agent', projects: [p0], agentId: 'cursor:bob', toolsets });
    carol = await connect(slug, { role: 'agent', projects: '*', defaultProject: p0, agentId: 'codex:carol', toolsets });
    admin = await connect(slug, { role: 'admin', projects: '*', defaultProject: p0, toolsets });
    reader = await connect(slug, { role: 'reader', projects: [p0], agentId: 'reader:rita', toolsets });
    coreOnly = await connect(slug, { role: 'agent', projects: [p0], agentId: 'cursor:bob' });
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

  const store = async (client: Client, content: string, extra: Record<string, unknown> = {}) =>
    (await ok(client, 'memory_store', { content, ...extra })).data.memory.id as string;
  const sharedIds = async (client: Client) =>
    (await ok(client, 'shared_with_me', {})).data.items.map((item: any) => item.memory.id);

  it('offers the four tools only with the sharing toolset, and share tools not to readers', async () => {
    const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);
    expect(await names(alice)).toEqual(
      expect.arrayContaining(['memory_share', 'memory_unshare', 'shared_with_me', 'my_shares']),
    );
    const defaults = await names(coreOnly);
    for (const name of ['memory_share', 'memory_unshare', 'shared_with_me', 'my_shares']) {
      expect(defaults).not.toContain(name);
    }
    const readers = await names(reader);
    expect(readers).toEqual(expect.arrayContaining(['shared_with_me', 'my_shares']));
    expect(readers).not.toContain('memory_share');
    // The gateway refuses the call its role lacks before the tool runs (403 insufficient scope, step-up).
    await expect(
      reader.callTool({ name: 'memory_share', arguments: { id: await store(alice, 'x'), agentId: 'cursor:bob' } }),
    ).rejects.toThrow(/may not call memory_share/);
  });

  it('share, find, update with write, never delete or re-share; unshare holds at once', async () => {
    const id = await store(alice, 'The staging database is rebuilt every Sunday');
    const shared = await ok(alice, 'memory_share', { id, agentId: 'cursor:bob', permission: 'write' });
    expect(shared.data).toMatchObject({ created: true, grant: { kind: 'share', memoryId: id, permission: 'write' } });
    expect(shared.text).toContain(shared.data.grant.id);

    const listed = await ok(bob, 'shared_with_me', {});
    expect(listed.data.items.map((item: any) => item.memory.id)).toContain(id);
    expect(listed.text).toMatch(/unverified/i);
    expect(listed.text).toContain('claude-code:alice');

    const updated = await ok(bob, 'memory_update', { id, content: 'The staging database is rebuilt every Saturday' });
    expect(updated.data.memory.version).toBe(2);
    const history = await ok(alice, 'memory_history', { id });
    expect(history.data.versions[0].changedBy.agentId).toBe('cursor:bob');

    expect(await refused(bob, 'memory_delete', { id })).toMatch(/not_owner/);
    expect(await refused(bob, 'memory_share', { id, agentId: 'codex:carol' })).toMatch(/not_owner/);

    const removed = await ok(alice, 'memory_unshare', { id: shared.data.grant.id });
    expect(removed.data.removed.id).toBe(shared.data.grant.id);
    expect(await sharedIds(bob)).not.toContain(id);
    expect(await refused(bob, 'memory_update', { id, importance: 5 })).toMatch(/not_owner/);
  });

  it('a tag rule shares memories tagged after it, and my_shares lists it for unsharing', async () => {
    const rule = await ok(alice, 'memory_share', { tag: 'handover', agentId: 'codex:carol' });
    expect(rule.data.grant).toMatchObject({ kind: 'rule', tag: 'handover', project: p0, permission: 'read' });
    const later = await store(alice, 'Handover: the on-call rota lives in the wiki', { tags: ['handover'] });
    expect(await sharedIds(carol)).toContain(later);
    // Read only: Carol (an agent) may not update Alice's memory.
    expect(await refused(carol, 'memory_update', { id: later, importance: 5 })).toMatch(/not_owner/);

    const mine = await ok(alice, 'my_shares', {});
    expect(mine.data.items.map((item: any) => item.id)).toContain(rule.data.grant.id);
    expect(mine.text).toContain('tag "handover"');
    await ok(alice, 'memory_unshare', { id: rule.data.grant.id });
    expect(await sharedIds(carol)).not.toContain(later);
  });

  it('only the owner or an admin shares; foreign projects and tenants are not found', async () => {
    const id = await store(alice, 'Alice only');
    expect(await refused(carol, 'memory_share', { id, agentId: 'cursor:bob' })).toMatch(/not_owner/);
    const byAdmin = await ok(admin, 'memory_share', { id, agentId: 'cursor:bob' });
    expect(byAdmin.data.created).toBe(true);
    expect(await sharedIds(bob)).toContain(id);

    expect(await refused(carol, 'memory_share', { id, agentId: 'cursor:bob', project: p1 })).toMatch(/not_found/);
    expect(await refused(stranger, 'memory_share', { id, agentId: 'cursor:bob' })).toMatch(/not_found/);
    expect(await refused(stranger, 'memory_unshare', { id: byAdmin.data.grant.id })).toMatch(/not_found/);
    expect(await refused(carol, 'memory_unshare', { id: byAdmin.data.grant.id })).toMatch(/not_owner/);
    expect(await refused(bob, 'shared_with_me', { project: p1 })).toMatch(/project_forbidden|may not use/);
  });

  it('refuses malformed arguments', async () => {
    const id = await store(alice, 'Malformed targets');
    for (const args of [
      {},
      { id },
      { id, tag: 'both', agentId: 'cursor:bob' },
      { id, agentId: 'cursor:bob', userId: '00000000-0000-4000-8000-000000000000' },
      { id, agentId: 'cursor:bob', allProjects: true },
      { id: 'nope', agentId: 'cursor:bob' },
      { id, agentId: 'bad agent' },
      { id, agentId: 'cursor:bob', permission: 'owner' },
      { id, agentId: 'claude-code:alice' },
    ]) {
      expect(await refused(alice, 'memory_share', args)).toMatch(
        /^Error \((bad_request|invalid_arguments|self_share)\)/,
      );
    }
    expect(await refused(alice, 'memory_unshare', { id: 'x' })).toMatch(/invalid_arguments/);
    expect(await refused(alice, 'my_shares', { cursor: 'garbage' })).toMatch(/invalid_cursor/);
    expect(await refused(alice, 'my_shares', { all: true })).toMatch(/admin_required/);
  });
});
