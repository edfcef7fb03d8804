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
 * Every memory tool of the core and maintenance toolsets, and the `cairn://memories/{id}`
 * resource, through the SDK's real client over HTTP: happy paths with their structured
 * content and text, and the refusals (bad arguments, foreign projects and tenants, roles,
 * toolsets, ownership).
 */
describe('memory tools over MCP', () => {
  let world: GatewayWorld;
  let p0: string;
  let p1: string;
  /** Agent scoped to p0 (its default), core toolset only. */
  let agentA: Client;
  /** Another agent on p0. */
  let agentB: Client;
  /** Agent on p0 that enabled the maintenance toolset (but may not merge). */
  let agentMaint: Client;
  /** Member on every project (default p0) with core and maintenance. */
  let member: Client;
  let reader: Client;
  /** Admin on every project (default p0). */
  let admin: Client;
  /** An agent of another tenant. */
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
    agentA = await connect(slug, { role: 'agent', projects: [p0], agentId: 'agent-a', toolsets: ['core'] });
    agentB = await connect(slug, { role: 'agent', projects: [p0], agentId: 'agent-b', toolsets: ['core'] });
    agentMaint = await connect(slug, {
      role: 'agent',
      projects: [p0],
      agentId: 'agent-m',
      toolsets: ['core', 'maintenance'],
    });
    member = await connect(slug, {
      role: 'member',
      projects: '*',
      defaultProject: p0,
      agentId: 'member-1',
      toolsets: ['core', 'maintenance'],
    });
    reader = await connect(slug, { role: 'reader', projects: [p0], toolsets: ['core', 'maintenance'] });
    admin = await connect(slug, { role: 'admin', projects: '*', defaultProject: p0, toolsets: ['core'] });
    stranger = await connect(other.tenant.slug, { role: 'agent', projects: '*', defaultProject: other.projects[0] });
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await world?.close();
  });

  async function store(client: Client, content: string, extra: Record<string, unknown> = {}): Promise<any> {
    return (await ok(client, 'memory_store', { content, ...extra })).data.memory;
  }

  const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

  describe('tools/list', () => {
    const core = ['memory_list', 'memory_get', 'memory_history', 'memory_related'];
    const coreWrites = ['memory_store', 'memory_update', 'memory_delete', 'memory_link', 'memory_verify'];
    const maintenance = ['memory_stale', 'memory_duplicates', 'memory_merge'];

    it('shows core tools and no maintenance tool to a token without the maintenance toolset', async () => {
      const visible = await names(agentA);
      expect(visible).toEqual(expect.arrayContaining([...core, ...coreWrites]));
      for (const name of maintenance) expect(visible).not.toContain(name);
    });

    it('shows maintenance tools when the token enables the toolset, merge only to maintainers', async () => {
      expect(await names(member)).toEqual(expect.arrayContaining([...core, ...coreWrites, ...maintenance]));
      const agent = await names(agentMaint);
      expect(agent).toEqual(expect.arrayContaining(['memory_stale', 'memory_duplicates']));
      expect(agent).not.toContain('memory_merge');
    });

    it('shows a reader the read tools and no write tool', async () => {
      const { tools } = await reader.listTools();
      const visible = tools.map((tool) => tool.name);
      expect(visible).toEqual(expect.arrayContaining([...core, 'memory_stale', 'memory_duplicates']));
      for (const name of [...coreWrites, 'memory_merge']) expect(visible).not.toContain(name);
      expect(tools.every((tool) => tool.annotations?.readOnlyHint === true)).toBe(true);
    });

    it('declares annotations: delete and merge destructive, reads read-only', async () => {
      const { tools } = await member.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));
      expect(byName.get('memory_delete')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(byName.get('memory_merge')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(byName.get('memory_update')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
      for (const name of [...core, 'memory_stale', 'memory_duplicates']) {
        expect(byName.get(name)?.annotations?.readOnlyHint).toBe(true);
      }
    });
  });

  describe('core tools', () => {
    it('memory_list pages with a cursor and filters by category', async () => {
      const tag = `list-${Date.now()}`;
      const first = await store(agentA, 'Lists use keyset pagination', { category: 'decision', tags: [tag] });
      const second = await store(agentA, 'The CI runs on every push', { category: 'fact', tags: [tag] });
      const third = await store(agentA, 'Deploys happen on Tuesdays', { category: 'decision', tags: [tag] });

      const page1 = await ok(agentA, 'memory_list', { filters: { tags: [tag] }, limit: 2 });
      expect(page1.data.items.map((m: any) => m.id)).toEqual([third.id, second.id]);
      expect(page1.data.nextCursor).toBe(second.id);
      expect(page1.text).toContain(third.id);
      expect(page1.text).toContain(`cursor "${second.id}"`);
      expect(page1.text.length).toBeLessThan(JSON.stringify(page1.data).length / 2);

      const page2 = await ok(agentA, 'memory_list', {
        filters: { tags: [tag] },
        limit: 2,
        cursor: page1.data.nextCursor,
      });
      expect(page2.data).toEqual({ items: [expect.objectContaining({ id: first.id })], nextCursor: null });
      expect(page2.text).not.toContain('More:');

      const decisions = await ok(agentA, 'memory_list', { filters: { tags: [tag], categories: ['decision'] } });
      expect(decisions.data.items.map((m: any) => m.id)).toEqual([third.id, first.id]);

      const none = await ok(agentA, 'memory_list', { filters: { tags: ['no-such-tag-anywhere'] } });
      expect(none.data).toEqual({ items: [], nextCursor: null });
      expect(none.text).toBe('No memories match.');
    });

    it('memory_get returns one memory with a compact line', async () => {
      const stored = await store(agentA, 'Postgres runs with pgvector 0.8', {
        category: 'architecture',
        tags: ['db'],
        keywords: ['vector database'],
        importance: 4,
      });
      const { data, text } = await ok(agentA, 'memory_get', { id: stored.id });
      expect(data).toMatchObject({
        id: stored.id,
        project: p0,
        content: 'Postgres runs with pgvector 0.8',
        category: 'architecture',
        importance: 4,
        tags: ['db'],
        author: { agentId: 'agent-a' },
      });
      expect(text).toContain(`id ${stored.id}`);
      expect(text).toContain('[architecture i4]');
      expect(text).toContain('keywords: vector database');
      expect(text).toContain('by agent agent-a');
    });

    it('memory_update changes fields, keeps the reason in memory_history', async () => {
      const stored = await store(agentA, 'Staging deploys are manual');
      const updated = await ok(agentA, 'memory_update', {
        id: stored.id,
        content: 'Staging deploys run on merge to main',
        importance: 5,
        reason: 'pipeline changed',
      });
      expect(updated.data.memory).toMatchObject({
        id: stored.id,
        content: 'Staging deploys run on merge to main',
        importance: 5,
        version: 2,
      });
      expect(updated.data.embedding).toMatch(/queued|deferred/);
      expect(updated.text).toContain(`Updated ${stored.id} to v2`);
      expect(updated.text).toContain('content, importance changed');

      const history = await ok(agentA, 'memory_history', { id: stored.id });
      expect(history.data.memory.version).toBe(2);
      expect(history.data.versions).toEqual([
        expect.objectContaining({
          version: 1,
          reason: 'pipeline changed',
          changedBy: { userId: null, agentId: 'agent-a' },
          snapshot: expect.objectContaining({ content: 'Staging deploys are manual' }),
        }),
      ]);
      expect(history.text).toContain('now v2');
      expect(history.text).toContain('v1 until');
      expect(history.text).toContain('(pipeline changed): Staging deploys are manual');

      const fresh = await store(agentA, 'A memory never changed');
      expect((await ok(agentA, 'memory_history', { id: fresh.id })).text).toContain('No earlier versions.');
    });

    it('memory_update refuses another agent, and an update with nothing to change', async () => {
      const stored = await store(agentA, 'Owned by agent A');
      const other = await refused(agentB, 'memory_update', { id: stored.id, content: 'Hijacked' });
      expect(other).toMatch(/^Error \(not_owner\): /);
      expect(await refused(agentA, 'memory_update', { id: stored.id, reason: 'just because' })).toMatch(
        /^Error \(nothing_to_change\)/,
      );
      // A maintainer may change anyone's memory.
      expect((await ok(member, 'memory_update', { id: stored.id, pinned: true })).data.memory.pinned).toBe(true);
      expect((await ok(agentA, 'memory_get', { id: stored.id })).data.content).toBe('Owned by agent A');
    });

    it("memory_delete removes the author's memory; another agent gets a clean refusal", async () => {
      const stored = await store(agentA, 'Temporary: the build cache lives in /tmp/cache');
      const refusal = await refused(agentB, 'memory_delete', { id: stored.id });
      expect(refusal).toBe('Error (not_owner): Only the author of a memory or an admin may delete it');
      await ok(agentA, 'memory_get', { id: stored.id });

      const deleted = await ok(agentA, 'memory_delete', { id: stored.id });
      expect(deleted.data).toEqual({ id: stored.id, deleted: true });
      expect(deleted.text).toBe(`Deleted ${stored.id}.`);
      expect(await refused(agentA, 'memory_get', { id: stored.id })).toBe('Error (not_found): Memory not found');
      expect(await refused(agentA, 'memory_delete', { id: stored.id })).toBe('Error (not_found): Memory not found');
    });

    it('memory_link and memory_related follow typed relations both ways', async () => {
      const base = await store(agentA, 'Auth uses opaque session tokens');
      const detail = await store(agentA, 'Session tokens are stored as SHA-256 hashes');
      const linked = await ok(agentA, 'memory_link', { id: detail.id, toId: base.id, type: 'elaborates', note: 'how' });
      expect(linked.data).toMatchObject({ fromId: detail.id, toId: base.id, type: 'elaborates', note: 'how' });
      expect(linked.text).toContain(`Linked ${detail.id} -elaborates-> ${base.id}`);
      // Idempotent: the same relation again is the same row.
      const again = await ok(agentA, 'memory_link', { id: detail.id, toId: base.id, type: 'elaborates' });
      expect(again.data.id).toBe(linked.data.id);

      const outgoing = await ok(agentA, 'memory_related', { id: detail.id });
      expect(outgoing.data.items).toEqual([
        expect.objectContaining({ direction: 'outgoing', memory: expect.objectContaining({ id: base.id }) }),
      ]);
      expect(outgoing.text).toContain(`this -elaborates-> `);
      expect(outgoing.text).toContain(base.id);
      const incoming = await ok(agentA, 'memory_related', { id: base.id });
      expect(incoming.data.items).toEqual([
        expect.objectContaining({ direction: 'incoming', memory: expect.objectContaining({ id: detail.id }) }),
      ]);
      const none = await ok(agentA, 'memory_related', { id: base.id, type: 'contradicts' });
      expect(none.data.items).toEqual([]);
      expect(none.text).toBe(`No memories are linked to ${base.id}.`);

      expect(await refused(agentA, 'memory_link', { id: base.id, toId: base.id, type: 'related_to' })).toMatch(
        /^Error \(self_relation\)/,
      );
    });

    it('memory_verify marks stale or verified, and memory_stale lists the stale ones', async () => {
      const hash = `sha256:${Date.now().toString(16)}aa`;
      const stored = await store(agentMaint, 'The gateway listens on port 8081', {
        source: { path: 'libs/config/src/config.schema.ts', line: 38, contentHash: hash },
      });
      const fresh = await ok(agentMaint, 'memory_verify', { id: stored.id, contentHash: hash });
      expect(fresh.data).toMatchObject({ stale: false, memory: { id: stored.id, stale: false } });
      expect(fresh.data.memory.verifiedAt).not.toBeNull();
      expect(fresh.text).toBe(`Verified: ${stored.id} (libs/config/src/config.schema.ts) matches the current file.`);

      const changed = await ok(agentMaint, 'memory_verify', { id: stored.id, contentHash: 'sha256:0000000000' });
      expect(changed.data).toMatchObject({ stale: true, memory: { id: stored.id, stale: true } });
      expect(changed.text).toMatch(/^STALE: /);

      const stale = await ok(agentMaint, 'memory_stale', { limit: 200 });
      expect(stale.data.items.map((m: any) => m.id)).toContain(stored.id);
      expect(stale.data.items.every((m: any) => m.stale)).toBe(true);
      expect(stale.text).toContain('STALE');
      expect(stale.text).toContain(stored.id);

      const plain = await store(agentMaint, 'A memory without a source');
      expect(await refused(agentMaint, 'memory_verify', { id: plain.id, contentHash: hash })).toMatch(
        /^Error \(no_source_hash\)/,
      );
    });
  });

  describe('maintenance tools', () => {
    it('memory_duplicates finds equal text and memory_merge folds the duplicate in', async () => {
      const text = `Releases are cut from the release branch (${Date.now()})`;
      const a = await store(member, text, { tags: ['release'] });
      const b = await store(member, text.toUpperCase(), { tags: ['branching'], importance: 5 });
      const duplicates = await ok(member, 'memory_duplicates', { limit: 200 });
      const [low, high] = a.id < b.id ? [a.id, b.id] : [b.id, a.id];
      expect(duplicates.data.pairs).toContainEqual({ a: low, b: high, similarity: 1, reason: 'same_content' });
      expect(duplicates.data.memories.map((m: any) => m.id)).toEqual(expect.arrayContaining([a.id, b.id]));
      expect(duplicates.text).toMatch(new RegExp(`1\\.000 same_content: ${low} ".*" ~ ${high}`));

      // An agent may see the candidates but merging needs memory.maintain: HTTP 403 step-up.
      await expect(
        agentMaint.callTool({ name: 'memory_merge', arguments: { id: a.id, sourceIds: [b.id] } }),
      ).rejects.toMatchObject({ code: 403 });

      const merged = await ok(member, 'memory_merge', { id: a.id, sourceIds: [b.id], reason: 'same fact' });
      expect(merged.data).toMatchObject({ sources: [b.id], memory: { id: a.id, importance: 5, version: 2 } });
      expect(merged.data.memory.tags.sort()).toEqual(['branching', 'release']);
      expect(merged.text).toContain(`Merged ${b.id} into ${a.id} (now v2)`);
      expect((await ok(member, 'memory_get', { id: b.id })).data.supersededBy).toBe(a.id);
      expect(await refused(member, 'memory_merge', { id: a.id, sourceIds: [a.id] })).toMatch(/^Error \(self_merge\)/);
    });

    it('memory_duplicates with source scan reads the (empty) last scan', async () => {
      const { data, text } = await ok(member, 'memory_duplicates', { source: 'scan', project: p1 });
      expect(data).toEqual({ pairs: [], memories: [], nextCursor: null });
      expect(text).toBe('No duplicate candidates.');
    });

    it('names the toolset that has it to a token without it, and how to get it (Unknown tool before)', async () => {
      await expect(agentA.callTool({ name: 'memory_stale', arguments: {} })).rejects.toThrow(
        /memory_stale is in the "maintenance" toolset, which this token does not enable: .*"toolsets": \[.*"maintenance"\]/,
      );
      // A tool the role may never call stays unknown outside the token's toolsets: naming its
      // toolset would send the agent to an admin for a token that still could not call it.
      await expect(reader.callTool({ name: 'kb_index', arguments: {} })).rejects.toThrow(
        /^MCP error -32602: Unknown tool: kb_index$/,
      );
      await expect(agentA.callTool({ name: 'no_such_tool', arguments: {} })).rejects.toThrow(
        /^MCP error -32602: Unknown tool: no_such_tool$/,
      );
    });
  });

  describe('refusals', () => {
    it('refuses wrong types, unknown arguments and oversized content', async () => {
      const stored = await store(agentA, 'Argument validation target');
      expect(await refused(agentA, 'memory_get', { id: 42 })).toMatch(
        /^Error \(invalid_arguments\): Invalid arguments: id: /,
      );
      expect(await refused(agentA, 'memory_get', { id: 'not-a-uuid' })).toContain('must be a memory id');
      expect(await refused(agentA, 'memory_get', { id: stored.id, verbose: true })).toContain(
        'unknown argument(s): verbose',
      );
      expect(await refused(agentA, 'memory_list', { limit: '5' })).toMatch(/Invalid arguments: limit: /);
      expect(await refused(agentA, 'memory_list', { limit: 201 })).toMatch(/Invalid arguments: limit: /);
      expect(await refused(agentA, 'memory_link', { id: stored.id, toId: stored.id, type: 'likes' })).toMatch(
        /Invalid arguments: type: /,
      );
      expect(await refused(agentA, 'memory_verify', { id: stored.id, contentHash: 'bad hash!' })).toContain(
        'must be a content hash',
      );
      expect(await refused(agentA, 'memory_update', { id: stored.id, content: 'x'.repeat(100_001) })).toContain(
        'content: must be at most 100000 characters',
      );
      // Within the schema bound but over the configured MEMORY_CONTENT_MAX_CHARS.
      expect(await refused(agentA, 'memory_update', { id: stored.id, content: 'y'.repeat(9_000) })).toMatch(
        /^Error \(content_too_long\): content must be at most \d+ characters/,
      );
      expect(await refused(member, 'memory_merge', { id: stored.id, sourceIds: [] })).toMatch(/sourceIds: /);
      expect((await ok(agentA, 'memory_get', { id: stored.id })).data.version).toBe(1);
    });

    it('answers "not found" for a memory of another project, alike for a missing one', async () => {
      const elsewhere = await store(member, 'Only project one knows this', { project: p1 });
      const missing = '00000000-0000-4000-8000-000000000000';
      const notFound = 'Error (not_found): Memory not found';
      for (const id of [elsewhere.id, missing]) {
        expect(await refused(agentA, 'memory_get', { id })).toBe(notFound);
        expect(await refused(agentA, 'memory_history', { id })).toBe(notFound);
        expect(await refused(agentA, 'memory_related', { id })).toBe(notFound);
        expect(await refused(agentA, 'memory_delete', { id })).toBe(notFound);
        // Even a maintainer's call in the wrong project does not reach it.
        expect(await refused(member, 'memory_update', { id, importance: 1 })).toBe(notFound);
      }
      const mine = await store(agentA, 'Links across projects are refused');
      expect(await refused(agentA, 'memory_link', { id: mine.id, toId: elsewhere.id, type: 'related_to' })).toBe(
        notFound,
      );
      expect(await refused(agentA, 'memory_get', { id: elsewhere.id, project: p1 })).toBe(
        `Error (project_forbidden): This token may not use project "${p1}"`,
      );
      expect((await ok(member, 'memory_get', { id: elsewhere.id, project: p1 })).data.project).toBe(p1);
    });

    it('answers "not found" for another tenant\'s memory', async () => {
      const stored = await store(agentA, 'Tenant A secret sauce is pgvector');
      const notFound = 'Error (not_found): Memory not found';
      expect(await refused(stranger, 'memory_get', { id: stored.id })).toBe(notFound);
      expect(await refused(stranger, 'memory_delete', { id: stored.id })).toBe(notFound);
      expect(await refused(stranger, 'memory_verify', { id: stored.id, contentHash: 'sha256:12345678' })).toBe(
        notFound,
      );
      const listed = await ok(stranger, 'memory_list', { limit: 200 });
      expect(listed.data.items.map((m: any) => m.id)).not.toContain(stored.id);
    });

    it('lets a reader read but answers HTTP 403 to a write call', async () => {
      const stored = await store(agentA, 'Readers can read this');
      expect((await ok(reader, 'memory_get', { id: stored.id })).data.id).toBe(stored.id);
      await expect(reader.callTool({ name: 'memory_store', arguments: { content: 'nope' } })).rejects.toMatchObject({
        code: 403,
        message: expect.stringContaining('may not call memory_store (needs memory.write)'),
      });
      await expect(reader.callTool({ name: 'memory_delete', arguments: { id: stored.id } })).rejects.toMatchObject({
        code: 403,
      });
      await ok(agentA, 'memory_get', { id: stored.id });
    });
  });

  describe('resource cairn://memories/{id}', () => {
    it('is advertised as a template, with no listed resources', async () => {
      const { resourceTemplates } = await agentA.listResourceTemplates();
      expect(resourceTemplates).toContainEqual(
        expect.objectContaining({ uriTemplate: 'cairn://memories/{id}', mimeType: 'text/markdown' }),
      );
      const { resources } = await agentA.listResources();
      expect(resources.filter((resource) => resource.uri.startsWith('cairn://memories/'))).toEqual([]);
    });

    it('reads a memory of a project the token may use, and a tenant-wide one', async () => {
      const stored = await store(agentA, 'Resource reads render markdown', {
        tags: ['mcp'],
        source: { path: 'README.md', line: 3 },
      });
      const { contents } = await agentA.readResource({ uri: `cairn://memories/${stored.id}` });
      expect(contents).toHaveLength(1);
      expect(contents[0]).toMatchObject({ uri: `cairn://memories/${stored.id}`, mimeType: 'text/markdown' });
      const text = (contents[0] as { text: string }).text;
      expect(text).toContain(`# Memory ${stored.id}`);
      expect(text).toContain('Resource reads render markdown');
      expect(text).toContain(`- project: ${p0}`);
      expect(text).toContain('- source: README.md:3');
      expect(text).toContain('- tags: mcp');

      // Tenant-wide memories are team memories: an admin (or orchestrator) writes them directly.
      const wide = await store(admin, 'Every project uses conventional commits', { scope: 'tenant' });
      const read = await agentA.readResource({ uri: `cairn://memories/${wide.id}` });
      expect((read.contents[0] as { text: string }).text).toContain('- project: tenant-wide');
      expect((await reader.readResource({ uri: `cairn://memories/${wide.id}` })).contents).toHaveLength(1);
    });

    it('refuses other projects, other tenants, deleted, missing and malformed ids alike', async () => {
      const elsewhere = await store(member, 'Hidden from project zero', { project: p1 });
      const gone = await store(agentA, 'Deleted before reading');
      await ok(agentA, 'memory_delete', { id: gone.id });
      const mine = await store(agentA, 'Tenant A only');
      const cases: [Client, string][] = [
        [agentA, elsewhere.id],
        [agentA, gone.id],
        [agentA, '00000000-0000-4000-8000-000000000000'],
        [agentA, 'not-a-uuid'],
        [stranger, mine.id],
      ];
      for (const [client, id] of cases) {
        await expect(client.readResource({ uri: `cairn://memories/${id}` })).rejects.toThrow(/Memory not found$/);
      }
      // The member's token covers p1: the same URI reads.
      expect((await member.readResource({ uri: `cairn://memories/${elsewhere.id}` })).contents).toHaveLength(1);
    });
  });
});
