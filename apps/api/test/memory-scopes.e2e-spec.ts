import { randomUUID } from 'node:crypto';
import {
  createProject,
  createTenant,
  createUser,
  issueToken,
  type TenantFixture,
  type TestClient,
} from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, store } from './memory-fixtures';

/**
 * Memory scopes (issue 14 §1) over REST: a private memory shows only to its author and to
 * those a share or a tag rule names, on every read path; team memories show in every project;
 * only orchestrators and admins write team memories directly.
 */
describe('memory scopes', () => {
  let api: ApiHarness;
  let tenant: TenantFixture;
  let project: string;
  let otherProject: string;
  /** Service-token agents on `project` (no user). */
  let alice: TestClient;
  let bob: TestClient;
  /** An agent on `otherProject` only. */
  let carol: TestClient;
  let member: TestClient;
  let admin: TestClient;
  let orchestrator: TestClient;

  beforeAll(async () => {
    api = await startApi();
    tenant = await createTenant(api.admin);
    project = (await createProject(api.admin, tenant.slug)).slug;
    otherProject = (await createProject(api.admin, tenant.slug)).slug;
    const token = async (role: string, projects: '*' | string[], agentId?: string, userId?: string) =>
      api.client.as((await issueToken(api.admin, tenant.slug, { role, projects, agentId, userId })).token);
    alice = await token('agent', [project], 'scopes:alice');
    bob = await token('agent', [project], 'scopes:bob');
    carol = await token('agent', [otherProject], 'scopes:carol');
    member = await token('member', '*');
    admin = await token('admin', '*');
    orchestrator = await token('orchestrator', '*', 'scopes:lead');
  });
  afterAll(() => api.close());

  const sql = (query: string, params: unknown[] = []) =>
    api.app.get(DataSource).query(query.replaceAll('$schema', `"${tenant.schema}"`), params);
  const ids = (items: { id: string }[]) => items.map((item) => item.id);
  const listed = async (client: TestClient, where = project, query = '') => {
    const response = await client.get(memoriesUrl(where, `?limit=100${query}`));
    expect(response.status).toBe(200);
    return ids(response.body.items);
  };
  const recalled = async (client: TestClient, query: string, where = project) => {
    const response = await client.post(memoriesUrl(where, '/search'), { query, mode: 'keyword', limit: 50 });
    expect(response.status).toBe(200);
    return response.body.results.map((hit: { memory: { id: string } }) => hit.memory.id);
  };
  /**
   * The change feed's ids; with `awaiting`, polled until it is there (up to 10 s): the feed's
   * horizon is cluster-wide, so another test file's open transaction delays fresh rows a moment.
   */
  const changed = async (client: TestClient, awaiting?: string): Promise<string[]> => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const response = await client.get(memoriesUrl(project, '/changes?limit=500'));
      expect(response.status).toBe(200);
      const found = response.body.items.map(
        (item: { id?: string; memory?: { id: string } }) => item.memory?.id ?? item.id,
      ) as string[];
      if (awaiting === undefined || found.includes(awaiting) || Date.now() > deadline) return found;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const exported = async (client: TestClient) => {
    const response = await api.app.inject({
      method: 'GET',
      url: memoriesUrl(project, '/export'),
      headers: { authorization: `Bearer ${client.token}` },
    });
    expect(response.statusCode).toBe(200);
    return response.body;
  };

  it('keeps a private memory to its author on every read path, and says each item’s scope', async () => {
    const shared = await store(alice, project, { content: 'Zebrafish deploys go through the canary ring' });
    const secret = await store(alice, project, {
      content: 'Zebrafish note: I suspect the canary ring hides flaky tests',
      scope: 'private',
    });
    expect(shared.memory.scope).toBe('project');
    expect(secret.memory.scope).toBe('private');
    const link = await alice.post(memoriesUrl(project, `/${shared.memory.id}/relations`), {
      toId: secret.memory.id,
      type: 'related_to',
    });
    expect(link.status).toBe(201);

    // The author sees it everywhere.
    expect((await alice.get(memoriesUrl(project, `/${secret.memory.id}`))).body.scope).toBe('private');
    expect(await listed(alice)).toContain(secret.memory.id);
    expect(await recalled(alice, 'zebrafish canary')).toContain(secret.memory.id);
    const aliceRelated = await alice.get(memoriesUrl(project, `/${shared.memory.id}/related`));
    expect(aliceRelated.body.items.map((item: { memory: { id: string } }) => item.memory.id)).toEqual([
      secret.memory.id,
    ]);
    expect(await changed(alice, secret.memory.id)).toContain(secret.memory.id);

    // Another agent of the same project, a member and even an admin do not (privacy).
    for (const other of [bob, member, admin]) {
      for (const path of ['', '/history', '/related']) {
        expect((await other.get(memoriesUrl(project, `/${secret.memory.id}${path}`))).status).toBe(404);
      }
      expect(await listed(other)).not.toContain(secret.memory.id);
      expect(await listed(other)).toContain(shared.memory.id);
      expect(await recalled(other, 'zebrafish canary')).not.toContain(secret.memory.id);
      const related = await other.get(memoriesUrl(project, `/${shared.memory.id}/related`));
      expect(related.body.items).toEqual([]);
      expect(await changed(other)).not.toContain(secret.memory.id);
    }
    // Nor can they change, link to or verify it: it is "not found" to them.
    expect((await bob.patch(memoriesUrl(project, `/${secret.memory.id}`), { importance: 5 })).status).toBe(404);
    expect((await member.delete(memoriesUrl(project, `/${secret.memory.id}`))).status).toBe(404);
    const across = await member.post('/v1/memories/search', { query: 'zebrafish canary', mode: 'keyword' });
    expect(across.status).toBe(200);
    expect(across.body.results.map((hit: { memory: { id: string } }) => hit.memory.id)).not.toContain(secret.memory.id);

    // Export: a non-admin's export leaves it out; an admin's (the backup) keeps every scope.
    expect(await exported(bob)).not.toContain(secret.memory.id);
    expect(await exported(alice)).toContain(secret.memory.id);
    // By id: the project memory's line names the private one too (its relation, kept in a backup).
    const backup = (await exported(admin))
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => JSON.parse(line) as { id?: string })
      .find((line) => line.id === secret.memory.id);
    expect(backup).toMatchObject({ id: secret.memory.id, scope: 'private' });
  });

  it('leaves others’ private memories out of the briefing', async () => {
    const context = (client: TestClient) => client.post(`/v1/projects/${project}/context`, {});
    expect((await context(bob)).status).toBe(200);
    expect((await context(alice)).status).toBe(200);
    await sql(`UPDATE $schema.agent_sessions SET last_seen_at = now() - interval '1 hour'`);
    const open = await store(alice, project, { content: 'Briefing check: open note', importance: 5 });
    const hidden = await store(alice, project, { content: 'Briefing check: private note', scope: 'private' });
    const bobs = (await context(bob)).body;
    expect(ids(bobs.newMemories)).toContain(open.memory.id);
    expect(ids(bobs.newMemories)).not.toContain(hidden.memory.id);
    const alices = (await context(alice)).body;
    expect(alices.newMemories).toEqual(
      expect.arrayContaining([expect.objectContaining({ id: hidden.memory.id, scope: 'private' })]),
    );
  });

  it('shows a private memory to whom a share names, until the share is gone', async () => {
    const { memory } = await store(alice, project, {
      content: 'Quokka handover: the staging key rotates',
      scope: 'private',
    });
    const url = memoriesUrl(project, `/${memory.id}`);
    expect((await bob.get(url)).status).toBe(404);
    const share = randomUUID();
    await sql(
      `INSERT INTO $schema.memory_shares (id, memory_id, grantee_agent_id, permission) VALUES ($1, $2, $3, 'read')`,
      [share, memory.id, 'scopes:bob'],
    );
    expect((await bob.get(url)).status).toBe(200);
    expect(await listed(bob)).toContain(memory.id);
    expect(await recalled(bob, 'quokka handover')).toContain(memory.id);
    // Only the grantee: carol (another project) and the member still get nothing.
    expect((await member.get(url)).status).toBe(404);
    await sql(`DELETE FROM $schema.memory_shares WHERE id = $1`, [share]);
    expect((await bob.get(url)).status).toBe(404);
    expect(await recalled(bob, 'quokka handover')).not.toContain(memory.id);
  });

  it('shows private memories carrying a shared tag, later ones included, only where the rule applies', async () => {
    const before = await store(alice, project, {
      content: 'Ocelot runbook step one',
      scope: 'private',
      tags: ['handoff'],
    });
    const untagged = await store(alice, project, { content: 'Ocelot musing', scope: 'private' });
    const ruleId = randomUUID();
    await sql(
      `INSERT INTO $schema.memory_share_rules (id, project_id, tag, owner_agent_id, grantee_agent_id, permission)
       VALUES ($1, NULL, 'handoff', $2, $3, 'read')`,
      [ruleId, 'scopes:alice', 'scopes:bob'],
    );
    const later = await store(alice, project, {
      content: 'Ocelot runbook step two',
      scope: 'private',
      tags: ['handoff'],
    });
    const bobSees = await listed(bob);
    expect(bobSees).toEqual(expect.arrayContaining([before.memory.id, later.memory.id]));
    expect(bobSees).not.toContain(untagged.memory.id);
    expect(await recalled(bob, 'ocelot runbook')).toEqual(expect.arrayContaining([before.memory.id, later.memory.id]));
    // A rule of someone else (bob owning it) does not open alice's memories.
    const foreign = randomUUID();
    await sql(
      `INSERT INTO $schema.memory_share_rules (id, project_id, tag, owner_agent_id, grantee_agent_id, permission)
       VALUES ($1, NULL, 'secret', 'scopes:bob', 'scopes:bob', 'read')`,
      [foreign],
    );
    const notBobs = await store(alice, project, { content: 'Ocelot secret', scope: 'private', tags: ['secret'] });
    expect(await listed(bob)).not.toContain(notBobs.memory.id);
    // A rule for another project does not apply here.
    await sql(
      `UPDATE $schema.memory_share_rules SET project_id = (SELECT id FROM $schema.projects WHERE slug = $2)
               WHERE id = $1`,
      [ruleId, otherProject],
    );
    expect(await listed(bob)).not.toContain(before.memory.id);
    await sql(`DELETE FROM $schema.memory_share_rules WHERE id = ANY($1::uuid[])`, [[ruleId, foreign]]);
  });

  it('treats every token of one user as the author, and shares to a user', async () => {
    const user = await createUser(api.admin, tenant.slug, 'member');
    const other = await createUser(api.admin, tenant.slug, 'member');
    const token = async (userId: string, agentId: string) =>
      api.client.as(
        (await issueToken(api.admin, tenant.slug, { role: 'agent', projects: [project], userId, agentId })).token,
      );
    const laptop = await token(user.id, 'scopes:laptop');
    const desktop = await token(user.id, 'scopes:desktop');
    const colleague = await token(other.id, 'scopes:laptop');
    const { memory } = await store(laptop, project, { content: 'Wombat: my own reminder', scope: 'private' });
    const url = memoriesUrl(project, `/${memory.id}`);
    expect((await desktop.get(url)).status).toBe(200);
    // Same agent id under another user is not the author.
    expect((await colleague.get(url)).status).toBe(404);
    await sql(
      `INSERT INTO $schema.memory_shares (id, memory_id, grantee_user_id, permission) VALUES ($1, $2, $3, 'read')`,
      [randomUUID(), memory.id, other.id],
    );
    expect((await colleague.get(url)).status).toBe(200);
  });

  it('shows team memories in every project, labelled with where they started', async () => {
    const { memory } = await store(orchestrator, project, {
      content: 'Team rule: Narwhal services log JSON',
      scope: 'team',
    });
    expect(memory).toMatchObject({ scope: 'team', project });
    const there = await carol.get(memoriesUrl(otherProject, `/${memory.id}`));
    expect(there.status).toBe(200);
    expect(there.body).toMatchObject({ scope: 'team', project });
    expect(await listed(carol, otherProject)).toContain(memory.id);
    expect(await recalled(carol, 'narwhal services', otherProject)).toContain(memory.id);
    // The list filter `scope`: `project` is where a memory started, `tenant` the team ones.
    expect(await listed(carol, otherProject, '&scope=project')).not.toContain(memory.id);
    expect(await listed(carol, otherProject, '&scope=tenant')).toContain(memory.id);
    expect(await listed(alice, project, '&scope=project')).toContain(memory.id);
  });

  it('lets only orchestrators and admins write team memories directly', async () => {
    for (const client of [alice, member]) {
      const denied = await client.post(memoriesUrl(project), { content: 'Team by the back door', scope: 'team' });
      expect(denied.status).toBe(403);
      expect(denied.body.error.code).toBe('team_scope_forbidden');
    }
    const wide = api.client.as(
      (await issueToken(api.admin, tenant.slug, { role: 'agent', projects: '*', agentId: 'scopes:wide' })).token,
    );
    const legacy = await wide.post(memoriesUrl(project), { content: 'Tenant-wide by the back door', scope: 'tenant' });
    expect(legacy.status).toBe(403);
    const byAdmin = await store(admin, project, { content: 'Tenant-wide by the admin', scope: 'tenant' });
    expect(byAdmin.memory).toMatchObject({ scope: 'team', project: null });
    expect((await alice.post(memoriesUrl(project), { content: 'x', scope: 'public' })).status).toBe(400);
    // Scope changes only by promotion: an update naming it is refused.
    const mine = await store(alice, project, { content: 'Stays private', scope: 'private' });
    const update = await alice.patch(memoriesUrl(project, `/${mine.memory.id}`), { scope: 'project' });
    expect(update.status).toBe(400);
  });

  it('makes agents default to private when the tenant says so, and keeps project otherwise', async () => {
    const settings = `/v1/tenants/${tenant.slug}/settings`;
    expect((await store(alice, project, { content: 'Default before the setting' })).memory.scope).toBe('project');
    const patched = await api.admin.patch(settings, { agentDefaultScope: 'private' });
    expect(patched.status).toBe(200);
    expect(patched.body.agentDefaultScope).toBe('private');
    expect((await api.admin.patch(settings, { agentDefaultScope: 'team' })).status).toBe(400);
    try {
      expect((await store(alice, project, { content: 'Agent default now private' })).memory.scope).toBe('private');
      expect((await store(alice, project, { content: 'Named scope wins', scope: 'project' })).memory.scope).toBe(
        'project',
      );
      // A token without an agent (the member) is not an agent: project as before.
      expect((await store(member, project, { content: 'Member default' })).memory.scope).toBe('project');
    } finally {
      await api.admin.patch(settings, { agentDefaultScope: 'project' });
    }
  });

  it('keeps rows written before scopes as they were: project rows for the project, tenant-wide ones for all', async () => {
    const old = randomUUID();
    const wide = randomUUID();
    await sql(
      `INSERT INTO $schema.memories (id, project_id, content, content_hash, category, importance, confidence,
         author_agent_id, scope)
       VALUES ($1, (SELECT id FROM $schema.projects WHERE slug = $2), 'Pre-scope project row', 'h1', 'fact', 3, 0.8,
                'legacy', DEFAULT),
              ($3, NULL, 'Pre-scope tenant-wide row', 'h2', 'fact', 3, 0.8, 'legacy', 'team')`,
      [old, project, wide],
    );
    const [row] = await sql(`SELECT scope FROM $schema.memories WHERE id = $1`, [old]);
    expect(row.scope).toBe('project');
    expect((await bob.get(memoriesUrl(project, `/${old}`))).body.scope).toBe('project');
    await expect(
      sql(
        `INSERT INTO $schema.memories (id, project_id, content, content_hash, category, importance, confidence)
         VALUES ($1, NULL, 'x', 'h3', 'fact', 3, 0.8)`,
        [randomUUID()],
      ),
    ).rejects.toThrow(/memories_scope_needs_project/);
    expect((await carol.get(memoriesUrl(otherProject, `/${wide}`))).body).toMatchObject({
      scope: 'team',
      project: null,
    });
  });
});
