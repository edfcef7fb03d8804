import { randomUUID } from 'node:crypto';
import { createProject, type FakeModelServer, startFakeModelServer } from '@cairn/testing';
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

const call = callTool;

describe('MCP context tools, status, briefing resource and session-start prompt', () => {
  let world: GatewayWorld;
  let a: TenantWithProjects;
  let b: TenantWithProjects;
  const clients: Client[] = [];

  /** Connects and lists tools first: the SDK client then checks every structuredContent against outputSchema. */
  async function connect(tenant: string, body: TokenRequest): Promise<Client> {
    const client = await connectClient(world.mcpUrl, await tokenFor(world, tenant, body));
    await client.listTools();
    clients.push(client);
    return client;
  }

  const agentToken = (agentId: string): TokenRequest => ({
    role: 'agent',
    projects: [a.projects[0], a.projects[1]],
    defaultProject: a.projects[0],
    agentId,
  });

  beforeAll(async () => {
    world = await startGatewayWorld();
    a = await tenantWithProjects(world, 3);
    b = await tenantWithProjects(world, 1);
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await world?.close();
  });

  it('lists the context and core tools an agent may use, and no harness tools without that toolset', async () => {
    const agent = await connect(a.tenant.slug, agentToken('claude-code:list'));
    const names = (await agent.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining(['remember', 'forget', 'recall_context', 'session_event', 'session_summarize', 'status']),
    );
    expect(names).not.toContain('file_summary');
    expect(names).not.toContain('extract_facts');
    const recall = (await agent.listTools()).tools.find((tool) => tool.name === 'recall_context')!;
    expect(recall.annotations).toMatchObject({ readOnlyHint: true });
    expect(recall.description).toMatch(/FIRST/);
    const forget = (await agent.listTools()).tools.find((tool) => tool.name === 'forget')!;
    expect(forget.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
  });

  it('remembers, briefs compactly with what changed, and forgets', async () => {
    const agent = await connect(a.tenant.slug, agentToken('claude-code:brief'));
    const first = await call(agent, 'recall_context', {});
    expect(first.isError).toBe(false);
    expect(first.structured.timeAnchor.lastSeenAt).toBeNull();
    expect(first.text).toContain('First visit');

    const remembered = await call(agent, 'remember', {
      key: 'current_task',
      value: 'Migrating the billing API to Fastify; routes done, tests next',
      importance: 5,
    });
    expect(remembered.isError).toBe(false);
    expect(remembered.structured.entry).toMatchObject({ key: 'current_task', importance: 5 });
    expect(remembered.structured.evicted).toEqual([]);
    for (const [key, value] of [
      ['plan', 'Port the webhook routes, then the invoice routes, then remove Express'],
      ['open_question', 'Do partners still call the v0 webhook endpoint?'],
      ['scratch/file', 'src/billing/routes.ts'],
    ]) {
      expect((await call(agent, 'remember', { key, value, importance: 2 })).isError).toBe(false);
    }
    const memoryIds: string[] = [];
    for (const content of [
      'Billing webhooks are signed with HMAC-SHA256 using the per-partner secret',
      'Invoices are immutable once issued; corrections are credit notes',
      'The staging database is reset every Sunday at 03:00 UTC',
      'Partner API clients retry 5 times with exponential backoff',
    ]) {
      const stored = await call(agent, 'memory_store', { content, category: 'fact', importance: 4 });
      expect(stored.isError).toBe(false);
      memoryIds.push(stored.structured.memory.id);
    }
    for (const file of ['src/billing/routes.ts', 'src/billing/webhooks.ts', 'test/billing/routes.spec.ts']) {
      expect((await call(agent, 'session_event', { kind: 'file_written', summary: file })).isError).toBe(false);
    }
    const event = await call(agent, 'session_event', {
      kind: 'decision',
      summary: 'Keep the v1 webhook format until partners migrate',
      details: { ticket: 'BIL-42', files: ['src/billing/webhooks.ts'] },
    });
    expect(event.isError).toBe(false);
    expect(event.structured).toMatchObject({ kind: 'decision', details: { ticket: 'BIL-42' } });
    expect(event.structured.agent).toBe('agent:claude-code:brief');

    const briefing = await call(agent, 'recall_context', { timezone: 'Europe/Berlin' });
    expect(briefing.isError).toBe(false);
    const data = briefing.structured;
    expect(data.project).toBe(a.projects[0]);
    expect(data.timeAnchor.lastSeenAt).not.toBeNull();
    expect(data.timeAnchor.since).toEqual({ memories: 4, events: 4 });
    expect(data.workingMemory.critical.map((item: { key: string }) => item.key)).toEqual(['current_task']);
    expect(data.workingMemory.total).toBe(4);
    expect(data.newMemories.map((memory: { id: string }) => memory.id).sort()).toEqual([...memoryIds].sort());
    expect(data.recentEvents[0]).toMatchObject({ id: event.structured.id, new: true });
    expect(data.status.embeddingModel.builtIn).toBe(true);
    expect(data).not.toHaveProperty('text');
    // The text keeps what the agent acts on (keys, values, full ids) and drops the bookkeeping.
    expect(briefing.text).toContain('current_task (5): Migrating the billing API');
    for (const id of memoryIds) expect(briefing.text).toContain(id);
    expect(briefing.text).toContain('Keep the v1 webhook format');
    expect(briefing.text).toContain('since: 4 memories, 4 events');
    expect(briefing.text.split('\n').length).toBeLessThan(25);
    // Against the same data as JSON: pretty-printed as MCP servers commonly put it in the text
    // block, and even minified, the text costs the agent a fraction of the context.
    expect(JSON.stringify(data, null, 2).length).toBeGreaterThan(3 * briefing.text.length);
    expect(JSON.stringify(data).length).toBeGreaterThan(2 * briefing.text.length);

    const forgotten = await call(agent, 'forget', { key: 'scratch/file' });
    expect(forgotten).toMatchObject({ isError: false, structured: { key: 'scratch/file', forgotten: true } });
    const again = await call(agent, 'forget', { key: 'scratch/file' });
    expect(again.isError).toBe(true);
    expect(again.text).toMatch(/^Error \(not_found\)/);
  });

  it('keeps working memory private to its agent and scoped to the project', async () => {
    const one = await connect(a.tenant.slug, agentToken('claude-code:one'));
    const two = await connect(a.tenant.slug, agentToken('claude-code:two'));
    expect((await call(one, 'remember', { key: 'secret_plan', value: 'only mine' })).isError).toBe(false);
    const other = await call(two, 'recall_context', {});
    expect(JSON.stringify(other.structured)).not.toContain('only mine');
    const otherProject = await call(one, 'recall_context', { project: a.projects[1] });
    expect(otherProject.structured.project).toBe(a.projects[1]);
    expect(JSON.stringify(otherProject.structured)).not.toContain('only mine');
    const wrongForget = await call(two, 'forget', { key: 'secret_plan' });
    expect(wrongForget.text).toMatch(/^Error \(not_found\)/);
  });

  it('files a session summary for the next briefing, queues a transcript and reports on the request', async () => {
    const agent = await connect(a.tenant.slug, agentToken('claude-code:summary'));
    const filed = await call(agent, 'session_summarize', {
      summary: 'Moved billing routes to Fastify; kept v1 webhooks; next: fix the flaky retry test',
    });
    expect(filed.isError).toBe(false);
    expect(filed.structured.outcome).toBe('filed');
    expect(filed.text).toContain(filed.structured.filed.documentId);
    const next = await call(agent, 'recall_context', {});
    expect(next.structured.lastSummary.text).toContain('fix the flaky retry test');
    expect(next.text).toContain('Last session summary');

    const queued = await call(agent, 'session_summarize', { transcript: 'User: port the routes.\nAgent: done.' });
    expect(queued.structured.outcome).toBe('queued');
    const requestId = queued.structured.accepted.requestId;
    expect(queued.text).toContain(requestId);
    const status = await call(agent, 'session_summarize', { requestId });
    expect(status.structured).toMatchObject({ outcome: 'status', request: { id: requestId, kind: 'session_summary' } });
    expect(status.structured.request.status).toBe('pending');
    expect(status.text).toContain('pending');

    const both = await call(agent, 'session_summarize', { summary: 'x', transcript: 'y' });
    expect(both.text).toMatch(/^Error \(invalid_arguments\): Pass exactly one/);
    const none = await call(agent, 'session_summarize', {});
    expect(none.isError).toBe(true);
    const unknown = await call(agent, 'session_summarize', { requestId: randomUUID() });
    expect(unknown.text).toMatch(/^Error \(not_found\)/);
  });

  it('describes the token, the search mode and the server in status', async () => {
    const agent = await connect(a.tenant.slug, { ...agentToken('claude-code:status'), toolsets: ['core', 'context'] });
    const status = await call(agent, 'status');
    expect(status.isError).toBe(false);
    expect(status.structured.token).toMatchObject({
      tenant: a.tenant.slug,
      role: 'agent',
      agentId: 'claude-code:status',
      projects: [a.projects[0], a.projects[1]],
      defaultProject: a.projects[0],
      toolsets: ['core', 'context'],
    });
    expect(status.structured.search).toMatchObject({
      mode: 'hybrid',
      embedding: { provider: 'hash', builtIn: true },
      providerReachable: null,
    });
    expect(status.structured.search.reason).toMatch(/built-in hash embedder/);
    expect(status.structured.server.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(status.text).toContain(a.tenant.slug);
    expect(status.text).toMatch(/Search: hybrid/);
    expect((await call(agent, 'status', { verbose: true })).text).toMatch(/^Error \(invalid_arguments\)/);
  });

  it('refuses bad arguments, projects outside the token and other tenants', async () => {
    const scoped = await connect(a.tenant.slug, {
      role: 'agent',
      projects: [a.projects[0]],
      agentId: 'claude-code:scoped',
    });
    const badImportance = await call(scoped, 'remember', { key: 'k', value: 'v', importance: 9 });
    expect(badImportance.text).toMatch(/^Error \(invalid_arguments\): Invalid arguments: importance/);
    const badKey = await call(scoped, 'remember', { key: 'has spaces', value: 'v' });
    expect(badKey.text).toMatch(/^Error \(invalid_arguments\)/);
    const unknownArg = await call(scoped, 'recall_context', { budget: 5 });
    expect(unknownArg.text).toMatch(/unknown argument\(s\): budget/);
    const badKind = await call(scoped, 'session_event', { kind: 'lunch', summary: 'ate' });
    expect(badKind.text).toMatch(/^Error \(invalid_arguments\)/);
    const badZone = await call(scoped, 'recall_context', { timezone: 'Mars/Olympus' });
    expect(badZone.text).toMatch(/^Error \(invalid_arguments\)/);

    const outside = await call(scoped, 'recall_context', { project: a.projects[1] });
    expect(outside.text).toMatch(/^Error \(project_forbidden\)/);
    const outsideWrite = await call(scoped, 'remember', { project: a.projects[2], key: 'k', value: 'v' });
    expect(outsideWrite.text).toMatch(/^Error \(project_forbidden\)/);

    // A token of tenant B, even with every project, cannot reach tenant A's projects.
    const other = await connect(b.tenant.slug, { role: 'agent', projects: '*', agentId: 'claude-code:b' });
    const crossRead = await call(other, 'recall_context', { project: a.projects[0] });
    expect(crossRead.text).toMatch(/^Error \(not_found\)/);
    const crossWrite = await call(other, 'session_event', { project: a.projects[0], kind: 'custom', summary: 'hi' });
    expect(crossWrite.text).toMatch(/^Error \(not_found\)/);
    const noDefault = await call(other, 'recall_context', {});
    expect(noDefault.text).toMatch(/^Error \(project_required\)/);
  });

  it('shows a reader the briefing but none of the writing tools', async () => {
    const reader = await connect(a.tenant.slug, { role: 'reader', projects: [a.projects[0]] });
    const names = (await reader.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['recall_context', 'status']));
    for (const hidden of ['remember', 'forget', 'session_event', 'session_summarize'])
      expect(names).not.toContain(hidden);
    expect((await call(reader, 'recall_context', {})).isError).toBe(false);
    await expect(reader.callTool({ name: 'remember', arguments: { key: 'k', value: 'v' } })).rejects.toThrow(
      /may not call remember/,
    );
  });

  it('lists one briefing resource per project of the token, reads allowed ones and refuses the rest', async () => {
    const agent = await connect(a.tenant.slug, agentToken('claude-code:resources'));
    const templates = await agent.listResourceTemplates();
    expect(templates.resourceTemplates.map((template) => template.uriTemplate)).toContain(
      'cairn://projects/{project}/briefing',
    );
    const listed = await agent.listResources();
    const uris = listed.resources.map((resource) => resource.uri).filter((uri) => uri.endsWith('/briefing'));
    expect(uris.sort()).toEqual([a.projects[0], a.projects[1]].map((p) => `cairn://projects/${p}/briefing`).sort());

    await call(agent, 'remember', { key: 'resource_note', value: 'visible in the briefing resource' });
    const read = await agent.readResource({ uri: `cairn://projects/${a.projects[0]}/briefing` });
    const contents = read.contents[0] as { uri: string; text: string; mimeType: string };
    expect(contents.uri).toBe(`cairn://projects/${a.projects[0]}/briefing`);
    expect(contents.text).toContain(`Briefing ${a.projects[0]}`);
    expect(contents.text).toContain('resource_note');

    await expect(agent.readResource({ uri: `cairn://projects/${a.projects[2]}/briefing` })).rejects.toThrow(
      /may not use project/,
    );
    await expect(agent.readResource({ uri: `cairn://projects/${b.projects[0]}/briefing` })).rejects.toThrow();
    await expect(agent.readResource({ uri: 'cairn://projects/NOT_A_SLUG/briefing' })).rejects.toThrow();

    const other = await connect(b.tenant.slug, { role: 'reader', projects: '*' });
    const otherUris = (await other.listResources()).resources.map((resource) => resource.uri);
    expect(otherUris).toEqual([`cairn://projects/${b.projects[0]}/briefing`]);
    await expect(other.readResource({ uri: `cairn://projects/${a.projects[0]}/briefing` })).rejects.toThrow(
      /not found/,
    );
  });

  it('caps the advertised briefings at 50 for a token that sees every project', async () => {
    const many = await tenantWithProjects(world, 1);
    for (let i = 0; i < 51; i += 1) await createProject(world.admin, many.tenant.slug);
    const client = await connect(many.tenant.slug, { role: 'reader', projects: '*' });
    expect((await client.listResources()).resources).toHaveLength(50);
  });

  it('renders the session-start prompt for the named or default project and refuses others', async () => {
    const agent = await connect(a.tenant.slug, agentToken('claude-code:prompt'));
    const prompts = await agent.listPrompts();
    expect(prompts.prompts.find((prompt) => prompt.name === 'session-start')?.arguments).toEqual([
      expect.objectContaining({ name: 'project', required: false }),
    ]);
    const named = await agent.getPrompt({ name: 'session-start', arguments: { project: a.projects[1] } });
    const text = (named.messages[0].content as { text: string }).text;
    expect(text).toContain(`recall_context with {"project": "${a.projects[1]}"}`);
    expect(text).toContain('memory_store');
    const byDefault = await agent.getPrompt({ name: 'session-start' });
    expect((byDefault.messages[0].content as { text: string }).text).toContain(`"project": "${a.projects[0]}"`);
    await expect(agent.getPrompt({ name: 'session-start', arguments: { project: a.projects[2] } })).rejects.toThrow(
      /may not use project/,
    );
  });
});

describe('MCP status with an embedding provider', () => {
  let models: FakeModelServer;
  let world: GatewayWorld;
  let client: Client;

  beforeAll(async () => {
    // The provider answers but does not serve the configured model yet.
    models = await startFakeModelServer({ dimensions: 64, models: ['llama3.2:latest'] });
    world = await startGatewayWorld({
      overrides: {
        EMBEDDING_PROVIDER: 'ollama',
        EMBEDDING_MODEL: 'nomic-embed-text',
        EMBEDDING_DIMENSIONS: '64',
        OLLAMA_URL: models.url,
      },
    });
    const { tenant } = await tenantWithProjects(world, 1);
    client = await connectClient(world.mcpUrl, await tokenFor(world, tenant.slug, { role: 'reader', projects: '*' }));
    await client.listTools();
  });
  afterAll(async () => {
    await client?.close();
    await world?.close();
    await models?.close();
  });

  it('reports keyword-only search while the provider lacks the model, hybrid once it serves it', async () => {
    const missing = await call(client, 'status');
    expect(missing.structured.search).toMatchObject({
      mode: 'keyword',
      providerReachable: false,
      embedding: { provider: 'ollama', dimensions: 64, builtIn: false },
    });
    expect(missing.structured.search.reason).toMatch(/does not answer or does not serve/);
    // Nothing about where the provider lives reaches the agent.
    expect(JSON.stringify(missing.structured)).not.toContain(models.url);
    expect(missing.text).toMatch(/Search: keyword/);

    models.options.models.push('nomic-embed-text:latest');
    // A failed probe is re-checked after 5 s, not on every call.
    await new Promise((resolve) => setTimeout(resolve, 5_200));
    const served = await call(client, 'status');
    expect(served.structured.search).toMatchObject({ mode: 'hybrid', providerReachable: true });
    expect(served.structured.search.reason).toMatch(/semantic vectors from ollama/);
  });
});
