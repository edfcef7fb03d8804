import { createProject, createTenant, issueToken } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

describe('long-term memories', () => {
  let api: ApiHarness;
  let w: MemoryWorld;

  beforeAll(async () => {
    api = await startApi({ MEMORY_CONTENT_MAX_CHARS: '2000' });
    w = await memoryWorld(api);
  });
  afterAll(() => api.close());

  it('stores a fact with its author, scope and defaults, and gets it back', async () => {
    const created = await store(w.agent, w.project, {
      content: 'The deploy pipeline runs on GitHub Actions',
      category: 'architecture',
      tags: ['CI', 'deploy', 'ci'],
      keywords: ['continuous integration', 'workflow'],
      importance: 4,
      source: { path: '.github/workflows/deploy.yml', line: 12, contentHash: 'sha256:abcdef0123' },
    });
    expect(created.embedding).toBe('queued');
    expect(created.memory).toMatchObject({
      project: w.project,
      category: 'architecture',
      tags: ['ci', 'deploy'],
      keywords: ['continuous integration', 'workflow'],
      importance: 4,
      confidence: 0.8,
      version: 1,
      stale: false,
      pinned: false,
      author: { agentId: 'claude-code:alice', userId: null },
      source: { path: '.github/workflows/deploy.yml', line: 12, contentHash: 'sha256:abcdef0123' },
    });
    const fetched = await w.reader.get(memoriesUrl(w.project, `/${created.memory.id}`));
    expect(fetched.status).toBe(200);
    expect(fetched.body.content).toBe('The deploy pipeline runs on GitHub Actions');
  });

  it('keeps every version with who, when and why', async () => {
    const { memory } = await store(w.agent, w.project, { content: 'Node 18 is the runtime' });
    const updated = await w.agent.patch(memoriesUrl(w.project, `/${memory.id}`), {
      content: 'Node 20 is the runtime',
      reason: 'upgraded in November',
    });
    expect(updated.status).toBe(200);
    expect(updated.body.memory).toMatchObject({ content: 'Node 20 is the runtime', version: 2 });
    expect(updated.body.embedding).toBe('queued');
    const history = await w.reader.get(memoriesUrl(w.project, `/${memory.id}/history`));
    expect(history.body.versions).toEqual([
      expect.objectContaining({
        version: 1,
        snapshot: expect.objectContaining({ content: 'Node 18 is the runtime' }),
        changedBy: { userId: null, agentId: 'claude-code:alice' },
        reason: 'upgraded in November',
      }),
    ]);
    const importanceOnly = await w.agent.patch(memoriesUrl(w.project, `/${memory.id}`), { importance: 5 });
    expect(importanceOnly.body.embedding).toBe('unchanged');
  });

  it('applies concurrent updates one after the other, losing none', async () => {
    const { memory } = await store(w.agent, w.project, { content: 'Concurrency check', tags: ['start'] });
    const url = memoriesUrl(w.project, `/${memory.id}`);
    const updates = await Promise.all(
      Array.from({ length: 6 }, (_, i) => w.agent.patch(url, { importance: (i % 5) + 1, reason: `update ${i}` })),
    );
    expect(updates.map((response) => response.status)).toEqual([200, 200, 200, 200, 200, 200]);
    const versions = updates.map((response) => response.body.memory.version).sort((a: number, b: number) => a - b);
    expect(versions).toEqual([2, 3, 4, 5, 6, 7]);
    const history = await w.agent.get(memoriesUrl(w.project, `/${memory.id}/history`));
    expect(history.body.versions).toHaveLength(6);
  });

  it('lets an admin delete any memory', async () => {
    const { memory } = await store(w.agent, w.project, { content: 'Admins may remove this' });
    expect((await w.admin.delete(memoriesUrl(w.project, `/${memory.id}`))).status).toBe(204);
  });

  it('lets only the author or a maintainer change a memory, and only the author or an admin delete it', async () => {
    const { memory } = await store(w.agent, w.project, { content: 'Alice owns the billing service' });
    const url = memoriesUrl(w.project, `/${memory.id}`);
    for (const [client, status] of [
      [w.otherAgent, 403],
      [w.reader, 403],
    ] as const) {
      expect((await client.patch(url, { importance: 1 })).status).toBe(status);
      expect((await client.delete(url)).status).toBe(status);
    }
    expect((await w.otherAgent.patch(url, { importance: 1 })).body.error.code).toBe('not_owner');
    expect((await w.member.patch(url, { importance: 2 })).status).toBe(200);
    expect((await w.member.delete(url)).status).toBe(403);
    expect((await w.agent.delete(url)).status).toBe(204);
    expect((await w.agent.get(url)).status).toBe(404);
    expect((await w.agent.delete(url)).status).toBe(404);
  });

  it('keeps projects apart and shares tenant-wide memories', async () => {
    const { memory: local } = await store(w.wideAgent, w.otherProject, {
      content: 'Only the other project knows this',
    });
    expect((await w.agent.get(memoriesUrl(w.otherProject, `/${local.id}`))).status).toBe(403);
    expect((await w.member.get(memoriesUrl(w.project, `/${local.id}`))).status).toBe(404);
    const denied = await w.agent.post(memoriesUrl(w.project), { content: 'tenant wide?', scope: 'tenant' });
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('scope_too_narrow');
    // Tenant-wide memories are team memories: an admin or orchestrator writes them directly.
    const { memory: wide } = await store(w.admin, w.otherProject, {
      content: 'All services log in JSON',
      scope: 'tenant',
    });
    expect(wide.project).toBeNull();
    expect((await w.agent.get(memoriesUrl(w.project, `/${wide.id}`))).status).toBe(200);
    const onlyProject = await w.agent.get(memoriesUrl(w.project, '?scope=project&limit=200'));
    expect(onlyProject.body.items.some((m: { id: string }) => m.id === wide.id)).toBe(false);
    const onlyTenant = await w.agent.get(memoriesUrl(w.project, '?scope=tenant'));
    expect(onlyTenant.body.items.map((m: { id: string }) => m.id)).toEqual([wide.id]);
  });

  it('never lets another tenant reach a memory, even through a project with the same slug', async () => {
    const { memory } = await store(w.agent, w.project, { content: 'Tenant one secret plan' });
    const other = await createTenant(api.admin);
    await createProject(api.admin, other.slug, w.project);
    const outsider = api.client.as((await issueToken(api.admin, other.slug, { role: 'admin' })).token);
    expect((await outsider.get(memoriesUrl(w.project, `/${memory.id}`))).status).toBe(404);
    expect((await outsider.patch(memoriesUrl(w.project, `/${memory.id}`), { importance: 1 })).status).toBe(404);
    expect((await outsider.delete(memoriesUrl(w.project, `/${memory.id}`))).status).toBe(404);
    const found = await outsider.post(memoriesUrl(w.project, '/search'), {
      query: 'tenant one secret plan',
      mode: 'keyword',
    });
    expect(found.body.results).toEqual([]);
    const listed = await outsider.get(memoriesUrl(w.project));
    expect(listed.body.items).toEqual([]);
    expect((await outsider.get(memoriesUrl(w.otherProject))).status).toBe(404);
    expect((await api.admin.get(memoriesUrl(w.project))).status).toBe(403);
  });

  it('lets readers read but never write', async () => {
    expect((await w.reader.post(memoriesUrl(w.project), { content: 'reader writes' })).status).toBe(403);
    expect((await w.reader.get(memoriesUrl(w.project))).status).toBe(200);
  });

  it('lists with filters and cursor pagination, newest first', async () => {
    const tag = `page-${Date.now()}`;
    for (let i = 0; i < 5; i += 1) {
      await store(w.agent, w.project, {
        content: `Paged fact number ${i}`,
        tags: [tag],
        category: i % 2 ? 'bug' : 'todo',
      });
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await w.agent.get(
        memoriesUrl(w.project, `?tags=${tag}&limit=2${cursor ? `&cursor=${cursor}` : ''}`),
      );
      expect(page.status).toBe(200);
      seen.push(...page.body.items.map((m: { content: string }) => m.content));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen).toEqual([4, 3, 2, 1, 0].map((i) => `Paged fact number ${i}`));
    const bugs = await w.agent.get(memoriesUrl(w.project, `?tags=${tag}&category=bug`));
    expect(bugs.body.items.map((m: { content: string }) => m.content)).toEqual([
      'Paged fact number 3',
      'Paged fact number 1',
    ]);
    const byAgent = await w.agent.get(memoriesUrl(w.project, `?tags=${tag}&authorAgentId=cursor:bob`));
    expect(byAgent.body.items).toEqual([]);
  });

  it('warns about contradictions, stores anyway, and records strong ones', async () => {
    const { memory: first } = await store(w.agent, w.project, {
      content: 'The session cookie is marked secure in production',
      tags: ['cookies'],
    });
    const second = await store(w.otherAgent, w.project, {
      content: 'The session cookie is not marked secure in production',
      tags: ['cookies'],
    });
    expect(second.warnings).toEqual([
      expect.objectContaining({ memoryId: first.id, strength: 'strong', recorded: true }),
    ]);
    const related = await w.agent.get(memoriesUrl(w.project, `/${second.memory.id}/related?type=contradicts`));
    expect(related.body.items).toEqual([
      expect.objectContaining({ direction: 'outgoing', memory: expect.objectContaining({ id: first.id }) }),
    ]);
    const unrelated = await store(w.agent, w.project, { content: 'Lunch is at noon on Fridays' });
    expect(unrelated.warnings).toEqual([]);
  });

  it('supersedes an old fact without deleting it', async () => {
    const { memory: old } = await store(w.agent, w.project, { content: 'The staging database is on db-1' });
    const { memory: replacement } = await store(w.agent, w.project, {
      content: 'The staging database moved to db-2',
      supersedes: [old.id],
    });
    const stale = await w.agent.get(memoriesUrl(w.project, `/${old.id}`));
    expect(stale.body.supersededBy).toBe(replacement.id);
    const listed = await w.agent.get(memoriesUrl(w.project, '?limit=200'));
    expect(listed.body.items.some((m: { id: string }) => m.id === old.id)).toBe(false);
    const withOld = await w.agent.get(memoriesUrl(w.project, '?limit=200&includeSuperseded=true'));
    expect(withOld.body.items.some((m: { id: string }) => m.id === old.id)).toBe(true);
    const history = await w.agent.get(memoriesUrl(w.project, `/${old.id}/history`));
    expect(history.body.versions[0].reason).toBe(`superseded by ${replacement.id}`);
    const bad = await w.agent.post(memoriesUrl(w.project), {
      content: 'supersedes nothing real',
      supersedes: ['00000000-0000-4000-8000-000000000000'],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('unknown_memory');
  });

  it('lets one of two concurrent supersedes of a memory win; the other is a 409 and stores nothing', async () => {
    const { memory: old } = await store(w.agent, w.project, { content: 'The release train leaves on Mondays' });
    const attempts = await Promise.all(
      ['Tuesdays', 'Wednesdays'].map((day) =>
        w.agent.post(memoriesUrl(w.project), { content: `The release train leaves on ${day}`, supersedes: [old.id] }),
      ),
    );
    expect(attempts.map((attempt) => attempt.status).sort()).toEqual([201, 409]);
    const winner = attempts.find((attempt) => attempt.status === 201)!.body.memory;
    const loser = attempts.find((attempt) => attempt.status === 409)!;
    expect(loser.body.error).toEqual({
      code: 'already_superseded',
      message: `Memory ${old.id} was already superseded by ${winner.id}; supersede that one instead`,
    });
    expect((await w.agent.get(memoriesUrl(w.project, `/${old.id}`))).body.supersededBy).toBe(winner.id);
    const listed = await w.agent.get(memoriesUrl(w.project, '?limit=200'));
    const trains = listed.body.items.filter((m: { content: string }) => m.content.startsWith('The release train'));
    expect(trains.map((m: { id: string }) => m.id)).toEqual([winner.id]);
    const history = await w.agent.get(memoriesUrl(w.project, `/${old.id}/history`));
    expect(history.body.versions.map((v: { reason: string }) => v.reason)).toEqual([`superseded by ${winner.id}`]);

    // Later attempts meet the same rule: an update naming it, and a supersedes link to it.
    const { memory: third } = await store(w.agent, w.project, { content: 'The release train leaves on Fridays' });
    const viaUpdate = await w.agent.patch(memoriesUrl(w.project, `/${third.id}`), { supersedes: [old.id] });
    expect([viaUpdate.status, viaUpdate.body.error?.code]).toEqual([409, 'already_superseded']);
    const viaLink = await w.agent.post(memoriesUrl(w.project, `/${third.id}/relations`), {
      toId: old.id,
      type: 'supersedes',
    });
    expect([viaLink.status, viaLink.body.error?.code]).toEqual([409, 'already_superseded']);
    // The winner may name it again (nothing changes), and the current fact can itself be superseded.
    expect((await w.agent.patch(memoriesUrl(w.project, `/${winner.id}`), { supersedes: [old.id] })).status).toBe(200);
    expect((await w.agent.patch(memoriesUrl(w.project, `/${third.id}`), { supersedes: [winner.id] })).status).toBe(200);
    expect((await w.agent.get(memoriesUrl(w.project, `/${old.id}`))).body.supersededBy).toBe(winner.id);
    expect((await w.agent.get(memoriesUrl(w.project, `/${old.id}/history`))).body.versions).toHaveLength(1);
  });

  it("lets only an author or a maintainer retire or relate from someone else's memory", async () => {
    const { memory: theirs } = await store(w.agent, w.project, { content: 'The build cache lives in bucket b-1' });
    const { memory: other } = await store(w.agent, w.project, { content: 'Artifacts are kept for 30 days' });
    const { memory: mine } = await store(w.otherAgent, w.project, { content: 'Artifacts are kept for 90 days' });
    // A colleague agent may neither supersede it (storing, updating, or linking) nor relate from it.
    const viaStore = await w.otherAgent.post(memoriesUrl(w.project), {
      content: 'Cache is b-2',
      supersedes: [theirs.id],
    });
    expect(viaStore.status).toBe(403);
    expect(viaStore.body.error.code).toBe('not_owner');
    const viaUpdate = await w.otherAgent.patch(memoriesUrl(w.project, `/${mine.id}`), { supersedes: [other.id] });
    expect(viaUpdate.status).toBe(403);
    const link = (client: typeof w.agent, from: string, toId: string, type: string) =>
      client.post(memoriesUrl(w.project, `/${from}/relations`), { toId, type });
    expect((await link(w.otherAgent, mine.id, other.id, 'supersedes')).status).toBe(403);
    expect((await link(w.otherAgent, theirs.id, mine.id, 'elaborates')).status).toBe(403);
    const untouched = await w.agent.get(memoriesUrl(w.project, `/${other.id}`));
    expect(untouched.body).toMatchObject({ supersededBy: null, version: 1 });
    expect((await w.agent.get(memoriesUrl(w.project, `/${theirs.id}/related`))).body.items).toEqual([]);
    // Relating one's own memory to theirs changes only one's own; a maintainer may supersede any.
    expect((await link(w.otherAgent, mine.id, other.id, 'contradicts')).status).toBe(201);
    expect((await link(w.member, mine.id, other.id, 'supersedes')).status).toBe(201);
    expect((await w.agent.get(memoriesUrl(w.project, `/${other.id}`))).body.supersededBy).toBe(mine.id);
  });

  it('links memories with typed relations, idempotently', async () => {
    const { memory: a } = await store(w.agent, w.project, { content: 'The API gateway depends on Redis' });
    const { memory: b } = await store(w.agent, w.project, { content: 'Redis runs as a three-node cluster' });
    const url = memoriesUrl(w.project, `/${a.id}/relations`);
    const first = await w.agent.post(url, { toId: b.id, type: 'depends_on', note: 'rate limits' });
    const again = await w.agent.post(url, { toId: b.id, type: 'depends_on' });
    expect(first.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const fromB = await w.reader.get(memoriesUrl(w.project, `/${b.id}/related`));
    expect(fromB.body.items).toEqual([
      expect.objectContaining({ direction: 'incoming', relation: expect.objectContaining({ type: 'depends_on' }) }),
    ]);
    expect((await w.agent.post(url, { toId: a.id, type: 'related_to' })).status).toBe(400);
    expect((await w.agent.post(url, { toId: b.id, type: 'likes' })).status).toBe(400);
    const { memory: elsewhere } = await store(w.wideAgent, w.otherProject, { content: 'Other project fact' });
    expect((await w.member.post(url, { toId: elsewhere.id, type: 'related_to' })).status).toBe(404);
  });

  it('marks memories stale when their source file changed, and flags them everywhere', async () => {
    const { memory } = await store(w.agent, w.project, {
      content: 'The retry limit is defined in config/retry.ts',
      source: { path: 'config/retry.ts', contentHash: 'sha256:1111111111' },
    });
    const url = memoriesUrl(w.project, `/${memory.id}/verify`);
    const fresh = await w.agent.post(url, { contentHash: 'sha256:1111111111' });
    expect(fresh.body).toMatchObject({ stale: false, memory: { stale: false, verifiedAt: expect.any(String) } });
    const changed = await w.agent.post(url, { contentHash: 'sha256:2222222222' });
    expect(changed.body.stale).toBe(true);
    const staleList = await w.agent.get(memoriesUrl(w.project, '/stale'));
    expect(staleList.body.items.map((m: { id: string }) => m.id)).toContain(memory.id);
    const found = await w.agent.post(memoriesUrl(w.project, '/search'), {
      query: 'retry limit config',
      mode: 'keyword',
    });
    expect(found.body.results.find((hit: any) => hit.memory.id === memory.id).memory.stale).toBe(true);
    const refreshed = await w.agent.patch(memoriesUrl(w.project, `/${memory.id}`), {
      source: { path: 'config/retry.ts', contentHash: 'sha256:2222222222' },
    });
    expect(refreshed.body.memory.stale).toBe(false);
    const { memory: noSource } = await store(w.agent, w.project, { content: 'No source here' });
    const noHash = await w.agent.post(memoriesUrl(w.project, `/${noSource.id}/verify`), {
      contentHash: 'sha256:3333333333',
    });
    expect(noHash.status).toBe(400);
    expect(noHash.body.error.code).toBe('no_source_hash');
  });
});
