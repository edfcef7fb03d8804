import { type ProjectCardContent, ProjectCards } from '@cairn/project-card';
import { TenantEntry } from '@cairn/tenancy';
import { createProject, createTenant, type TenantFixture, TestClient } from '@cairn/testing';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { connectClient, type GatewayWorld, startGatewayWorld, toolOk, toolRefused, tokenFor } from './gateway-harness';

/** Synthetic but format-valid AWS access key id, as the secret tests use. */
const AWS_KEY = 'AKIA2E4AYF3B7C5DQGQW';

const derived = (overrides: Partial<ProjectCardContent> = {}): ProjectCardContent => ({
  stack: ['TypeScript (612 files)', 'NestJS', 'PostgreSQL'],
  layout: [
    { path: 'libs/', files: 412, summary: 'one library per capability' },
    { path: 'apps/', files: 120, summary: 'entry points only' },
  ],
  entryPoints: [{ path: 'apps/api/src/main.ts', why: 'the REST API' }],
  buildAndTest: [{ command: 'npm test', why: 'jest against PostgreSQL and Redis' }],
  conventions: ['derived convention'],
  hotFiles: [{ path: 'libs/memory/src/memories.repository.ts', why: 'changed in most commits' }],
  notes: '',
  ...overrides,
});

/**
 * The project card (issue 25) over MCP and REST: empty until derived or edited; derivation (as
 * the code index calls it, inside its tenant transaction) and edits make versions, edited
 * sections survive later derivations, optimistic concurrency, history, the refusals (role,
 * project, tenant, malformed input), secret redaction, and the card in recall_context.
 */
describe('the project card', () => {
  let world: GatewayWorld;
  let tenant: TenantFixture;
  let p0: { id: string; slug: string };
  let p1: { id: string; slug: string };
  let agent: Client;
  let reader: Client;
  let outsider: Client;
  let rest: { agent: TestClient; reader: TestClient; outsider: TestClient };
  const clients: Client[] = [];

  const refresh = (content: ProjectCardContent, commit: string | null = 'abc123') =>
    world.api
      .get(TenantEntry)
      .transaction(tenant, () =>
        world.api.get(ProjectCards).refreshDerived(p0.id, content, { branch: 'main', commit }),
      );
  const card = (client: Client, args: Record<string, unknown> = {}) =>
    toolOk(client, 'project_card', { project: p0.slug, ...args });
  const url = (path = '') => `/v1/projects/${p0.slug}/card${path}`;

  beforeAll(async () => {
    world = await startGatewayWorld();
    tenant = await createTenant(world.admin);
    p0 = await createProject(world.admin, tenant.slug);
    p1 = await createProject(world.admin, tenant.slug);
    const other = await createTenant(world.admin);
    const otherProject = await createProject(world.admin, other.slug);
    const toolsets = ['core', 'context', 'harness'];
    const tokens = {
      agent: await tokenFor(world, tenant.slug, {
        role: 'agent',
        projects: [p0.slug],
        agentId: 'card:agent',
        toolsets: [...toolsets, 'secrets'],
      }),
      reader: await tokenFor(world, tenant.slug, {
        role: 'reader',
        projects: [p0.slug],
        agentId: 'card:reader',
        toolsets,
      }),
      outsider: await tokenFor(world, other.slug, {
        role: 'member',
        projects: [otherProject.slug],
        agentId: 'card:out',
        toolsets,
      }),
    };
    const connect = async (token: string) => {
      const client = await connectClient(world.mcpUrl, token);
      clients.push(client);
      return client;
    };
    agent = await connect(tokens.agent);
    reader = await connect(tokens.reader);
    outsider = await connect(tokens.outsider);
    rest = {
      agent: new TestClient(world.api).as(tokens.agent),
      reader: new TestClient(world.api).as(tokens.reader),
      outsider: new TestClient(world.api).as(tokens.outsider),
    };
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await world?.close();
  });

  it('is empty (version 0) before anything derives or edits it', async () => {
    const { data, text } = await card(agent);
    expect(data).toMatchObject({ project: p0.slug, version: 0, edited: [], derivedFrom: null, updatedAt: null });
    expect(data.content.stack).toEqual([]);
    expect(text).toContain('none yet');
    const briefing = await toolOk(agent, 'recall_context', { project: p0.slug });
    expect(briefing.text).not.toContain('Project card');
  });

  it('shows what the code index derived', async () => {
    expect(await refresh(derived())).toBe(1);
    const { data, text } = await card(agent);
    expect(data.version).toBe(1);
    expect(data.derivedFrom).toMatchObject({ branch: 'main', commit: 'abc123' });
    expect(data.updatedBy).toBeNull();
    expect(text).toContain('Stack: TypeScript (612 files), NestJS, PostgreSQL');
    expect(text).toContain('- libs/ (412 files): one library per capability');
  });

  it('makes no new version when a derivation says nothing new', async () => {
    expect(await refresh(derived(), 'def456')).toBe(1);
    expect((await card(agent)).data.version).toBe(1);
  });

  it('edits by tool and by REST, each a new version naming its edited sections', async () => {
    const edited = await toolOk(agent, 'project_card_edit', {
      project: p0.slug,
      changes: { conventions: ['only repositories touch the database'] },
      expectedVersion: 1,
      note: 'the rule everyone breaks',
    });
    expect(edited.data).toMatchObject({ project: p0.slug, version: 2, edited: ['conventions'] });
    expect(edited.text).toContain('version 2');
    const v2 = (await card(agent)).data;
    expect(v2).toMatchObject({ note: 'the rule everyone breaks', updatedBy: { userId: null, agentId: 'card:agent' } });
    const patched = await rest.agent.patch(url(), {
      changes: { notes: 'Deploys go through Helm.' },
      expectedVersion: 2,
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ version: 3, edited: ['conventions', 'notes'] });
    expect(patched.body.content.stack).toEqual(derived().stack);
    const read = await rest.reader.get(url());
    expect(read.status).toBe(200);
    expect(read.body.content.notes).toBe('Deploys go through Helm.');
  });

  it('keeps edited sections through a later derivation and refreshes the others', async () => {
    const next = derived({ stack: ['Go (20 files)'], conventions: ['derived again'], notes: 'derived notes' });
    expect(await refresh(next, 'fed789')).toBe(4);
    const { data } = await card(agent);
    expect(data.content.stack).toEqual(['Go (20 files)']);
    expect(data.content.conventions).toEqual(['only repositories touch the database']);
    expect(data.content.notes).toBe('Deploys go through Helm.');
    expect(data.edited).toEqual(['conventions', 'notes']);
    expect(data.derivedFrom.commit).toBe('fed789');
    expect(await refresh(next, 'fed790')).toBe(4);
  });

  it('refuses an edit made against a version no longer current', async () => {
    expect(
      await toolRefused(agent, 'project_card_edit', {
        project: p0.slug,
        changes: { notes: 'stale' },
        expectedVersion: 2,
      }),
    ).toMatch(/card_version_conflict|version 4, not 2/);
    const stale = await rest.agent.patch(url(), { changes: { notes: 'stale' }, expectedVersion: 3 });
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('card_version_conflict');
    expect((await card(agent)).data.version).toBe(4);
  });

  it('lists versions newest first, paged, and reads a past one', async () => {
    const first = await rest.reader.get(url('/versions?limit=3'));
    expect(first.status).toBe(200);
    expect(first.body.items.map((item: { version: number }) => item.version)).toEqual([4, 3, 2]);
    expect(first.body.items[0].content).toBeUndefined();
    expect(first.body.nextBefore).toBe(2);
    const rest2 = await rest.reader.get(url('/versions?limit=3&before=2'));
    expect(rest2.body).toMatchObject({ items: [{ version: 1, edited: [] }], nextBefore: null });
    const v2 = await rest.reader.get(url('/versions/2'));
    expect(v2.status).toBe(200);
    expect(v2.body.content.conventions).toEqual(['only repositories touch the database']);
    expect((await card(reader, { version: 1 })).data.content.conventions).toEqual(['derived convention']);
    expect((await rest.reader.get(url('/versions/99'))).status).toBe(404);
    expect(await toolRefused(reader, 'project_card', { project: p0.slug, version: 99 })).toMatch(/not found/i);
  });

  it('lets a reader read but not edit', async () => {
    expect((await card(reader)).data.version).toBe(4);
    // A role without the tool's permission is refused before the tool runs (a JSON-RPC error).
    await expect(
      reader.callTool({ name: 'project_card_edit', arguments: { project: p0.slug, changes: { notes: 'x' } } }),
    ).rejects.toThrow(/may not call project_card_edit \(needs kb.write\)/);
    expect((await rest.reader.patch(url(), { changes: { notes: 'x' } })).status).toBe(403);
  });

  it('refuses a project outside the token and one of another tenant', async () => {
    expect(await toolRefused(agent, 'project_card', { project: p1.slug })).toMatch(/project/i);
    expect(await toolRefused(agent, 'project_card_edit', { project: p1.slug, changes: { notes: 'x' } })).toMatch(
      /project/i,
    );
    expect(await toolRefused(outsider, 'project_card', { project: p0.slug })).toMatch(/project/i);
    expect((await rest.agent.get(`/v1/projects/${p1.slug}/card`)).status).toBe(403);
    expect([403, 404]).toContain((await rest.outsider.get(url())).status);
    expect([403, 404]).toContain((await rest.outsider.patch(url(), { changes: { notes: 'x' } })).status);
  });

  it.each([
    ['an unknown section', { changes: { bogus: ['x'] } }, /bogus|unrecognized/i],
    ['no section', { changes: {} }, /at least one section/],
    ['too many items', { changes: { stack: Array(31).fill('x') } }, /stack.*at most 30/],
    ['oversized notes', { changes: { notes: 'n'.repeat(4_001) } }, /notes.*at most 4000/],
    ['a wrong type', { changes: { layout: [{ path: 'libs/', files: 'many', summary: '' }] } }, /layout\.0\.files/],
    ['a negative version', { changes: { notes: 'x' }, expectedVersion: -1 }, /expectedVersion/],
    ['an unknown field', { changes: { notes: 'x' }, extra: true }, /extra|unrecognized/i],
  ])('refuses an edit with %s', async (_what, args, message) => {
    expect(await toolRefused(agent, 'project_card_edit', { project: p0.slug, ...args })).toMatch(message);
    const response = await rest.agent.patch(url(), args);
    expect(response.status).toBe(400);
    expect(JSON.stringify(response.body)).toMatch(message);
  });

  it('refuses malformed reads', async () => {
    expect(await toolRefused(agent, 'project_card', { project: p0.slug, version: 0 })).toMatch(/version/);
    expect((await rest.agent.get(url('/versions/abc'))).status).toBe(400);
    expect((await rest.agent.get(url('/versions?limit=101'))).status).toBe(400);
    expect((await rest.agent.get(url('/versions?bogus=1'))).status).toBe(400);
  });

  it('redacts a secret in an edit, keeping the original sealed', async () => {
    await toolOk(agent, 'project_card_edit', {
      project: p0.slug,
      changes: { notes: `The staging key is ${AWS_KEY}, rotate it monthly.` },
    });
    const { data, text } = await card(agent);
    expect(data.content.notes).not.toContain(AWS_KEY);
    expect(text).not.toContain(AWS_KEY);
    const id = /\[SECRET:[a-z0-9-]+:([A-Za-z0-9_-]+)\]/.exec(data.content.notes)![1];
    const read = await rest.reader.get(url());
    expect(JSON.stringify(read.body)).not.toContain(AWS_KEY);
    const original = await toolOk(agent, 'secret_get', { id });
    expect(original.data).toMatchObject({ value: AWS_KEY, sourceTable: 'project_card_versions' });
  });

  it('briefs recall_context with the card', async () => {
    const { data, text } = await toolOk(agent, 'recall_context', { project: p0.slug });
    expect(text).toContain(`Project card of ${p0.slug}, v5`);
    expect(text).toContain('Stack: Go (20 files)');
    expect(text).toContain('- only repositories touch the database');
    // Told in the text only: the structured copy stays within the tool list's size goal.
    expect(data.projectCard).toBeUndefined();
    const briefing = await rest.agent.post(`/v1/projects/${p0.slug}/context`, {});
    expect(briefing.status).toBe(200);
    expect(briefing.body.projectCard).toMatchObject({ version: 5, clipped: false });
    expect(briefing.body.text).toContain('## Project card\nProject card of');
  });

  it('gives concurrent edits distinct versions, and one of two made against the same version a 409', async () => {
    const current = (await card(agent)).data.version;
    const edit = (notes: string, expectedVersion?: number) =>
      rest.agent.patch(url(), { changes: { notes }, ...(expectedVersion === undefined ? {} : { expectedVersion }) });
    const racing = await Promise.all([edit('one', current), edit('two', current)]);
    expect(racing.map((response) => response.status).sort()).toEqual([200, 409]);
    const free = await Promise.all([edit('three'), edit('four'), edit('five')]);
    expect(free.map((response) => response.status)).toEqual([200, 200, 200]);
    expect(free.map((response) => response.body.version).sort()).toEqual([current + 2, current + 3, current + 4]);
  });
});
