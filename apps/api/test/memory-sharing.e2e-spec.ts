import { randomUUID } from 'node:crypto';
import { createTenant, createUser, issueToken, type TestClient } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

/**
 * Sharing over REST against real PostgreSQL: one memory or a live tag rule, with a user or an
 * agent, read or write; what a share allows (a grantee's update) and never allows (delete,
 * re-share); that taking it back holds on the very next request; and who may share at all.
 */
describe('memory sharing over REST', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  /** A user of the tenant, and an agent token of theirs on the project. */
  let dana: { id: string };
  let danaAgent: TestClient;

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
    dana = await createUser(api.admin, w.tenant.slug, 'member');
    const token = await issueToken(api.admin, w.tenant.slug, {
      role: 'agent',
      projects: [w.project],
      userId: dana.id,
      agentId: 'claude-code:dana',
    });
    danaAgent = api.client.as(token.token);
  });
  afterAll(() => api.close());

  const base = () => `/v1/projects/${w.project}`;
  const shareUrl = (id: string, project = w.project) => `/v1/projects/${project}/memories/${id}/shares`;
  const sharedWithMe = async (client: TestClient, query = '') => {
    const response = await client.get(`${base()}/shared-with-me${query}`);
    expect(response.status).toBe(200);
    return response.body as { items: any[]; nextCursor: string | null; note: string };
  };
  const sharedIds = async (client: TestClient) => (await sharedWithMe(client)).items.map((item) => item.memory.id);
  const alicesMemory = async (extra: Record<string, unknown> = {}) =>
    (await store(w.agent, w.project, { content: `Alice's note ${randomUUID()}`, ...extra })).memory.id;

  it('a read share lists the memory for its grantee, labelled, with who shared it, and allows nothing more', async () => {
    const id = await alicesMemory();
    expect(await sharedIds(w.otherAgent)).not.toContain(id);
    const shared = await w.agent.post(shareUrl(id), { agentId: 'cursor:bob' });
    expect(shared.status).toBe(201);
    expect(shared.body).toMatchObject({
      kind: 'share',
      memoryId: id,
      project: w.project,
      grantee: { userId: null, agentId: 'cursor:bob' },
      permission: 'read',
      grantedBy: { agentId: 'claude-code:alice' },
    });

    const page = await sharedWithMe(w.otherAgent);
    const item = page.items.find((entry) => entry.memory.id === id);
    expect(item).toMatchObject({
      permission: 'read',
      via: 'share',
      grantId: shared.body.id,
      sharedBy: { agentId: 'claude-code:alice' },
      unverified: true,
    });
    expect(page.note).toMatch(/unverified/);
    // Not shared with anyone else, and never listed for its own author.
    expect(await sharedIds(w.wideAgent)).not.toContain(id);
    expect(await sharedIds(w.agent)).not.toContain(id);

    // Read only: an agent may not update another's memory, and a read share changes nothing.
    const update = await w.otherAgent.patch(memoriesUrl(w.project, `/${id}`), { content: 'Bob was here' });
    expect(update.status).toBe(403);
  });

  it('a write share lets the grantee update (a version by the grantee) but never delete or re-share', async () => {
    const id = await alicesMemory({ tags: ['ops'] });
    expect((await w.agent.post(shareUrl(id), { agentId: 'cursor:bob', permission: 'write' })).status).toBe(201);

    const update = await w.otherAgent.patch(memoriesUrl(w.project, `/${id}`), {
      content: 'Deploys now run from main only',
      reason: 'bob corrected it',
    });
    expect(update.status).toBe(200);
    expect(update.body.memory).toMatchObject({ content: 'Deploys now run from main only', version: 2 });
    // Still Alice's memory; the history says Bob changed it.
    expect(update.body.memory.author).toEqual({ userId: null, agentId: 'claude-code:alice' });
    const history = await w.agent.get(memoriesUrl(w.project, `/${id}/history`));
    expect(history.body.versions[0]).toMatchObject({
      version: 1,
      changedBy: { agentId: 'cursor:bob' },
      reason: 'bob corrected it',
    });

    expect((await w.otherAgent.delete(memoriesUrl(w.project, `/${id}`))).status).toBe(403);
    const reshare = await w.otherAgent.post(shareUrl(id), { agentId: 'codex:carol' });
    expect(reshare.status).toBe(403);
    expect(reshare.body.error.code).toBe('not_owner');
    // Nor may the grantee supersede it by storing a replacement.
    const supersede = await w.otherAgent.post(memoriesUrl(w.project), { content: 'replacement', supersedes: [id] });
    expect(supersede.status).toBe(403);
    expect((await w.agent.get(memoriesUrl(w.project, `/${id}`))).status).toBe(200);
  });

  it('sharing again changes the permission (200), and unsharing takes effect on the next request', async () => {
    const id = await alicesMemory();
    const first = await w.agent.post(shareUrl(id), { agentId: 'cursor:bob', permission: 'write' });
    expect(first.status).toBe(201);
    const again = await w.agent.post(shareUrl(id), { agentId: 'cursor:bob', permission: 'read' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, permission: 'read' });
    expect((await w.otherAgent.patch(memoriesUrl(w.project, `/${id}`), { importance: 5 })).status).toBe(403);

    await w.agent.post(shareUrl(id), { agentId: 'cursor:bob', permission: 'write' });
    expect((await w.otherAgent.patch(memoriesUrl(w.project, `/${id}`), { importance: 4 })).status).toBe(200);
    expect((await w.agent.delete(`${base()}/shares/${first.body.id}`)).status).toBe(204);
    // At once: no cached decision lets the next update through, and the listing drops it.
    expect((await w.otherAgent.patch(memoriesUrl(w.project, `/${id}`), { importance: 5 })).status).toBe(403);
    expect(await sharedIds(w.otherAgent)).not.toContain(id);
    expect((await w.agent.delete(`${base()}/shares/${first.body.id}`)).status).toBe(404);
  });

  it('a private memory shared through the route shows in the grantee’s get, list and recall until unshared', async () => {
    const word = `pangolin${randomUUID().slice(0, 8)}`;
    const id = await alicesMemory({ content: `Private ${word} rota for the on-call week`, scope: 'private' });
    const url = memoriesUrl(w.project, `/${id}`);
    const recalled = async (client: TestClient) => {
      const response = await client.post(memoriesUrl(w.project, '/search'), { query: word, mode: 'keyword' });
      expect(response.status).toBe(200);
      return response.body.results.map((hit: { memory: { id: string } }) => hit.memory.id);
    };
    const listed = async (client: TestClient) =>
      (await client.get(memoriesUrl(w.project, '?limit=100'))).body.items.map((item: { id: string }) => item.id);
    // Private: Bob sees nothing of it, not even that it exists, and may not update it.
    expect((await w.otherAgent.get(url)).status).toBe(404);
    expect(await recalled(w.otherAgent)).not.toContain(id);
    expect((await w.otherAgent.patch(url, { importance: 5 })).status).toBe(404);

    const share = await w.agent.post(shareUrl(id), { agentId: 'cursor:bob', permission: 'write' });
    expect(share.status).toBe(201);
    const got = await w.otherAgent.get(url);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({ id, scope: 'private' });
    expect(await listed(w.otherAgent)).toContain(id);
    expect(await recalled(w.otherAgent)).toContain(id);
    expect(await sharedIds(w.otherAgent)).toContain(id);
    // A write share reaches a private memory too: Bob loads it for the update; it stays private.
    const update = await w.otherAgent.patch(url, { importance: 5 });
    expect(update.status).toBe(200);
    expect(update.body.memory).toMatchObject({ importance: 5, scope: 'private' });
    // Shared with Bob only: the other agent in the tenant still gets nothing.
    expect((await w.wideAgent.get(url)).status).toBe(404);
    expect(await recalled(w.wideAgent)).not.toContain(id);

    expect((await w.agent.delete(`${base()}/shares/${share.body.id}`)).status).toBe(204);
    expect((await w.otherAgent.get(url)).status).toBe(404);
    expect(await listed(w.otherAgent)).not.toContain(id);
    expect(await recalled(w.otherAgent)).not.toContain(id);
    expect((await w.otherAgent.patch(url, { importance: 4 })).status).toBe(404);
    // Its author still has it, as Bob left it.
    expect((await w.agent.get(url)).body).toMatchObject({ id, importance: 5 });
  });

  it('a tag rule shares the owner’s memories tagged later too, here only, until it is removed', async () => {
    const tag = `release-${randomUUID().slice(0, 8)}`;
    const rule = await w.agent.post(`${base()}/share-rules`, { tag, agentId: 'cursor:bob', permission: 'write' });
    expect(rule.status).toBe(201);
    expect(rule.body).toMatchObject({ kind: 'rule', tag, project: w.project, permission: 'write' });

    const later = await alicesMemory({ tags: [tag.toUpperCase()] });
    const untagged = await alicesMemory({ tags: ['other'] });
    // Someone else's memory with the tag is not the rule owner's to share.
    const carols = (await store(w.wideAgent, w.project, { content: 'Carol tagged it too', tags: [tag] })).memory.id;
    const listed = await sharedWithMe(w.otherAgent);
    const ids = listed.items.map((item) => item.memory.id);
    expect(ids).toContain(later);
    expect(ids).not.toContain(untagged);
    expect(ids).not.toContain(carols);
    expect(listed.items.find((item) => item.memory.id === later)).toMatchObject({ via: 'rule', grantId: rule.body.id });
    // The rule grants write: Bob may update it.
    expect((await w.otherAgent.patch(memoriesUrl(w.project, `/${later}`), { importance: 5 })).status).toBe(200);

    // Tagging an existing memory brings it in, live.
    await w.agent.patch(memoriesUrl(w.project, `/${untagged}`), { tags: ['other', tag] });
    expect(await sharedIds(w.otherAgent)).toContain(untagged);

    // The same tag in another project is outside a rule made for this one.
    const elsewhere = (await store(w.wideAgent, w.otherProject, { content: 'Carol elsewhere', tags: [tag] })).memory.id;
    const carolRule = await w.wideAgent.post(`${base()}/share-rules`, { tag, agentId: 'cursor:bob' });
    expect(carolRule.status).toBe(201);
    expect(await sharedIds(w.otherAgent)).toContain(carols);
    const bobWide = api.client.as(
      (await issueToken(api.admin, w.tenant.slug, { role: 'agent', projects: '*', agentId: 'cursor:bob' })).token,
    );
    const otherProjectShares = await bobWide.get(`/v1/projects/${w.otherProject}/shared-with-me`);
    expect(otherProjectShares.body.items.map((item: any) => item.memory.id)).not.toContain(elsewhere);

    expect((await w.agent.delete(`${base()}/share-rules/${rule.body.id}`)).status).toBe(204);
    const after = await sharedIds(w.otherAgent);
    expect(after).not.toContain(later);
    expect(after).not.toContain(untagged);
    expect((await w.otherAgent.patch(memoriesUrl(w.project, `/${later}`), { importance: 4 })).status).toBe(403);
  });

  it('making the same rule again changes its permission instead of adding a second one', async () => {
    const body = { tag: 'twice', agentId: 'cursor:bob' };
    const first = await w.agent.post(`${base()}/share-rules`, body);
    expect(first.status).toBe(201);
    const again = await w.agent.post(`${base()}/share-rules`, { ...body, permission: 'write' });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ id: first.body.id, permission: 'write' });
    const rules = (await w.agent.get(`${base()}/shares?limit=200`)).body.items.filter(
      (item: any) => item.tag === 'twice',
    );
    expect(rules).toHaveLength(1);
  });

  it('pages shared_with_me newest first', async () => {
    const reviewer = api.client.as(
      (await issueToken(api.admin, w.tenant.slug, { role: 'agent', projects: [w.project], agentId: 'pager' })).token,
    );
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      const id = await alicesMemory();
      await w.agent.post(shareUrl(id), { agentId: 'pager' });
      ids.push(id);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: any[]; nextCursor: string | null } = await sharedWithMe(
        reviewer,
        `?limit=2${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((item) => item.memory.id));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
  });

  it('an every-project rule needs a token scoped to every project', async () => {
    const narrow = await w.agent.post(`${base()}/share-rules`, { tag: 'x', agentId: 'cursor:bob', allProjects: true });
    expect(narrow.status).toBe(403);
    expect(narrow.body.error.code).toBe('scope_too_narrow');
    const wide = await w.wideAgent.post(`${base()}/share-rules`, {
      tag: 'x',
      agentId: 'cursor:bob',
      allProjects: true,
    });
    expect(wide.status).toBe(201);
    expect(wide.body.project).toBeNull();
  });

  it('shares with a user reach every token of that user; the user must exist in the tenant', async () => {
    const id = await alicesMemory();
    expect((await w.agent.post(shareUrl(id), { userId: dana.id })).status).toBe(201);
    expect(await sharedIds(danaAgent)).toContain(id);

    const unknown = await w.agent.post(shareUrl(id), { userId: randomUUID() });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('unknown_user');
    const foreign = await createUser(api.admin, (await createTenant(api.admin)).slug, 'member');
    expect((await w.agent.post(shareUrl(id), { userId: foreign.id })).body.error.code).toBe('unknown_user');
  });

  it('only the owner or an admin shares; a member may not share what it did not write', async () => {
    const id = await alicesMemory();
    const stranger = await w.otherAgent.post(shareUrl(id), { agentId: 'codex:carol' });
    expect(stranger.status).toBe(403);
    expect(stranger.body.error.code).toBe('not_owner');
    expect((await w.member.post(shareUrl(id), { agentId: 'codex:carol' })).status).toBe(403);
    const byAdmin = await w.admin.post(shareUrl(id), { agentId: 'codex:carol' });
    expect(byAdmin.status).toBe(201);
    expect(await sharedIds(w.wideAgent)).toContain(id);
    // The owner may take back what an admin granted; a stranger may not.
    expect((await w.otherAgent.delete(`${base()}/shares/${byAdmin.body.id}`)).status).toBe(403);
    expect((await w.agent.delete(`${base()}/shares/${byAdmin.body.id}`)).status).toBe(204);
  });

  it('readers list what is shared with them but may not share', async () => {
    expect((await w.reader.get(`${base()}/shared-with-me`)).status).toBe(200);
    expect((await w.reader.get(`${base()}/shares`)).status).toBe(200);
    const id = await alicesMemory();
    expect((await w.reader.post(shareUrl(id), { agentId: 'cursor:bob' })).status).toBe(403);
  });

  it('ids of another project or tenant are 404, as if absent', async () => {
    const id = await alicesMemory();
    const share = (await w.agent.post(shareUrl(id), { agentId: 'cursor:bob' })).body;
    const wide = w.wideAgent;
    expect((await wide.post(shareUrl(id, w.otherProject), { agentId: 'cursor:bob' })).status).toBe(404);
    expect((await w.admin.delete(`/v1/projects/${w.otherProject}/shares/${share.id}`)).status).toBe(404);
    const rule = (await wide.post(`${base()}/share-rules`, { tag: 'p-only', agentId: 'cursor:bob' })).body;
    expect((await wide.delete(`/v1/projects/${w.otherProject}/share-rules/${rule.id}`)).status).toBe(404);
    expect((await w.agent.delete(`${base()}/share-rules/${share.id}`)).status).toBe(404);

    const other = await createTenant(api.admin);
    const { slug } = (await api.admin.post(`/v1/tenants/${other.slug}/projects`, { slug: w.project, name: 'twin' }))
      .body;
    const intruder = api.client.as((await issueToken(api.admin, other.slug, { role: 'admin', projects: '*' })).token);
    expect((await intruder.post(shareUrl(id, slug), { agentId: 'cursor:bob' })).status).toBe(404);
    expect((await intruder.delete(`/v1/projects/${slug}/shares/${share.id}`)).status).toBe(404);
    expect((await intruder.get(`/v1/projects/${slug}/shares?all=true`)).body.items).toEqual([]);
  });

  it('refuses malformed input with 400', async () => {
    const id = await alicesMemory();
    const bad = [
      {},
      { agentId: 'cursor:bob', userId: randomUUID() },
      { agentId: 'not an agent id!' },
      { userId: 'not-a-uuid' },
      { agentId: 'cursor:bob', permission: 'admin' },
      { agentId: 'cursor:bob', extra: true },
    ];
    for (const body of bad)
      expect({ body, status: (await w.agent.post(shareUrl(id), body)).status }).toEqual({ body, status: 400 });
    expect((await w.agent.post(shareUrl('nope'), { agentId: 'cursor:bob' })).status).toBe(400);
    const self = await w.agent.post(shareUrl(id), { agentId: 'claude-code:alice' });
    expect(self.status).toBe(400);
    expect(self.body.error.code).toBe('self_share');
    expect((await w.agent.post(`${base()}/share-rules`, { agentId: 'cursor:bob' })).status).toBe(400);
    expect((await w.agent.post(`${base()}/share-rules`, { tag: '', agentId: 'cursor:bob' })).status).toBe(400);
    expect((await w.agent.delete(`${base()}/shares/12`)).status).toBe(400);
    expect((await w.agent.get(`${base()}/shares?cursor=garbage`)).body.error.code).toBe('invalid_cursor');
    expect((await w.agent.get(`${base()}/shared-with-me?limit=0`)).status).toBe(400);
  });

  it('my_shares lists shares and rules newest first, page by page; all=true is for admins', async () => {
    const owner = api.client.as(
      (await issueToken(api.admin, w.tenant.slug, { role: 'agent', projects: [w.project], agentId: 'lister' })).token,
    );
    const id = (await store(owner, w.project, { content: 'Lister note' })).memory.id;
    const made = [
      (await owner.post(shareUrl(id), { agentId: 'cursor:bob' })).body.id,
      (await owner.post(`${base()}/share-rules`, { tag: 'lists', agentId: 'cursor:bob' })).body.id,
      (await owner.post(shareUrl(id), { agentId: 'codex:carol' })).body.id,
    ];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const response: { status: number; body: any } = await owner.get(
        `${base()}/shares?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
      );
      expect(response.status).toBe(200);
      seen.push(...response.body.items.map((item: any) => item.id));
      cursor = response.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([...made].reverse());
    // Removing one mid-way does not end a listing early: the cursor is a position, not a row.
    const firstPage = await owner.get(`${base()}/shares?limit=1`);
    await owner.delete(`${base()}/shares/${firstPage.body.items[0].id}`);
    const rest = await owner.get(`${base()}/shares?cursor=${firstPage.body.nextCursor}`);
    expect(rest.body.items.map((item: any) => item.id)).toEqual([made[1], made[0]]);

    expect((await owner.get(`${base()}/shares?memoryId=${id}`)).body.items.map((item: any) => item.id)).toEqual([
      made[0],
    ]);
    expect((await w.otherAgent.get(`${base()}/shares`)).body.items.map((item: any) => item.id)).not.toContain(made[0]);
    expect((await w.otherAgent.get(`${base()}/shares?all=true`)).status).toBe(403);
    const all = await w.admin.get(`${base()}/shares?all=true&limit=200`);
    expect(all.body.items.map((item: any) => item.id)).toEqual(expect.arrayContaining([made[0], made[1]]));
  });
});
