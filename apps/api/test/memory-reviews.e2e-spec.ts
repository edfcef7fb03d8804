import { createProject, createTenant, issueToken, type TenantFixture, type TestClient } from '@cairn/testing';
import { eventually } from '@cairn/process-harness';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, store } from './memory-fixtures';

/**
 * The review queue of team memory over REST (issue 14 §1): promotions to a wider scope decided
 * by an orchestrator or an admin, contradictions between authors queued and resolved, and the
 * author told in their next briefing, once.
 */
describe('memory promotions and the review queue', () => {
  let api: ApiHarness;
  let tenant: TenantFixture;
  let project: string;
  let otherProject: string;
  let agentA: TestClient;
  let agentB: TestClient;
  let orchestrator: TestClient;
  let admin: TestClient;
  let member: TestClient;
  let reader: TestClient;
  let outsider: TestClient;

  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
    api.app.get(DataSource).query<T[]>(query.replaceAll('$schema', `"${tenant.schema}"`), params);
  const scopeOf = async (id: string) =>
    (
      await sql<{ scope: string; version: number }>('SELECT scope, version FROM $schema.memories WHERE id = $1', [id])
    )[0];
  const promote = (client: TestClient, id: string, body: Record<string, unknown>, at = project) =>
    client.post(memoriesUrl(at, `/${id}/promotions`), body);
  const decide = (client: TestClient, id: string, body: Record<string, unknown>, at = project) =>
    client.post(`/v1/projects/${at}/reviews/${id}`, body);
  const queue = async (client: TestClient, query = '') => client.get(`/v1/projects/${project}/reviews${query}`);
  const briefing = async (client: TestClient) => {
    const body = (await client.post(`/v1/projects/${project}/context`, {})).body;
    return { ...body, reviewOutcomes: body.reviewOutcomes ?? [] } as { reviewOutcomes: any[]; text: string };
  };

  /** Follows a client's change feed from `since` until nothing more is ready: the ids and the cursor. */
  const drain = async (client: TestClient, since?: string) => {
    /** Memories delivered as themselves, and the ids of tombstones. */
    const ids: string[] = [];
    const tombstones: string[] = [];
    let cursor = since;
    for (;;) {
      const query = cursor ? `?since=${encodeURIComponent(cursor)}` : '';
      const page = await client.get(memoriesUrl(project, `/changes${query}`));
      expect(page.status).toBe(200);
      for (const item of page.body.items as { id?: string; memory?: { id: string } }[]) {
        if (item.memory) ids.push(item.memory.id);
        else tombstones.push(item.id as string);
      }
      cursor = page.body.nextCursor as string;
      if (!page.body.hasMore) return { ids, tombstones, cursor };
    }
  };
  /** The feed from `since` until it delivers `id`: another test file's transaction may hold it a moment. */
  const feedUntil = (client: TestClient, since: string | undefined, id: string) =>
    eventually(
      async () => ((await drain(client, since)).ids.includes(id) ? true : undefined),
      10_000,
      `memory ${id} in the change feed`,
    );

  beforeAll(async () => {
    api = await startApi();
    tenant = await createTenant(api.admin);
    project = (await createProject(api.admin, tenant.slug)).slug;
    otherProject = (await createProject(api.admin, tenant.slug)).slug;
    const token = async (role: string, projects: '*' | string[], agentId?: string, slug = tenant.slug) =>
      api.client.as((await issueToken(api.admin, slug, { role, projects, agentId })).token);
    agentA = await token('agent', [project], 'agent-a');
    agentB = await token('agent', [project], 'agent-b');
    orchestrator = await token('orchestrator', [project], 'orchestrator-1');
    admin = await token('admin', '*');
    member = await token('member', '*');
    reader = await token('reader', [project]);
    const elsewhere = await createTenant(api.admin);
    await createProject(api.admin, elsewhere.slug);
    outsider = await token('admin', '*', undefined, elsewhere.slug);
  });
  afterAll(() => api.close());

  it('lets an agent propose and an orchestrator approve: the scope widens, with a version entry', async () => {
    const { memory } = await store(agentA, project, { content: 'Release notes live in docs/releases' });
    expect((await promote(reader, memory.id, { toScope: 'team' })).status).toBe(403);

    const proposed = await promote(agentA, memory.id, { toScope: 'team', note: 'every repo ships notes' });
    expect(proposed.status).toBe(201);
    expect(proposed.body).toMatchObject({
      kind: 'promotion',
      status: 'pending',
      memoryId: memory.id,
      fromScope: 'project',
      toScope: 'team',
      note: 'every repo ships notes',
      proposedBy: { agentId: 'agent-a' },
      decidedBy: null,
    });
    const again = await promote(agentB, memory.id, { toScope: 'team' });
    expect(again).toMatchObject({ status: 409, body: { error: { code: 'promotion_pending' } } });

    // Agents, members and readers neither see the queue nor decide.
    for (const client of [agentA, agentB, member, reader]) {
      expect((await decide(client, proposed.body.id, { decision: 'approve', reason: 'fine' })).status).toBe(403);
      expect((await queue(client)).status).toBe(403);
    }
    expect(await scopeOf(memory.id)).toEqual({ scope: 'project', version: 1 });

    const pending = await queue(orchestrator);
    expect(pending.status).toBe(200);
    expect(pending.body.items).toContainEqual(
      expect.objectContaining({
        id: proposed.body.id,
        memory: expect.objectContaining({
          id: memory.id,
          excerpt: 'Release notes live in docs/releases',
          agentWritten: true,
          author: { userId: null, agentId: 'agent-a' },
        }),
        otherMemory: null,
      }),
    );

    const approved = await decide(orchestrator, proposed.body.id, { decision: 'approve', reason: 'useful everywhere' });
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({
      status: 'approved',
      decisionReason: 'useful everywhere',
      decidedBy: { agentId: 'orchestrator-1' },
    });
    expect(await scopeOf(memory.id)).toEqual({ scope: 'team', version: 2 });
    const history = await agentA.get(memoriesUrl(project, `/${memory.id}/history`));
    expect(history.body.versions).toEqual([
      expect.objectContaining({
        version: 1,
        snapshot: expect.objectContaining({ scope: 'project', content: 'Release notes live in docs/releases' }),
        reason: expect.stringContaining('promoted from project to team'),
        changedBy: { userId: null, agentId: 'orchestrator-1' },
      }),
    ]);

    // Audited: who decided which review; the reason stays in the review, not in the audit entry.
    const audited = await eventually(
      async () => {
        const rows = await sql<{ actor: string; target: string; details: unknown }>(
          `SELECT actor, target, details FROM $schema.audit_log WHERE action = 'memory.review' AND outcome = 'success'`,
        );
        return rows.length > 0 ? rows : undefined;
      },
      5_000,
      'the audit entry of the decision',
    );
    expect(audited).toEqual([
      expect.objectContaining({ target: `/v1/projects/${project}/reviews/${proposed.body.id}` }),
    ]);
    expect(JSON.stringify(audited)).not.toContain('useful everywhere');

    const twice = await decide(admin, proposed.body.id, { decision: 'reject', reason: 'changed my mind' });
    expect(twice).toMatchObject({ status: 409, body: { error: { code: 'review_decided' } } });
    expect((await queue(orchestrator)).body.items.map((item: { id: string }) => item.id)).not.toContain(
      proposed.body.id,
    );
    // Already team: nothing wider to go to.
    const wider = await promote(agentA, memory.id, { toScope: 'team' });
    expect(wider).toMatchObject({ status: 400, body: { error: { code: 'scope_not_wider' } } });

    // The author is told in the next briefing, once; another agent is not told.
    expect((await briefing(agentB)).reviewOutcomes).toEqual([]);
    const told = await briefing(agentA);
    expect(told.reviewOutcomes).toEqual([
      expect.objectContaining({
        reviewId: proposed.body.id,
        kind: 'promotion',
        status: 'approved',
        memoryId: memory.id,
        toScope: 'team',
        reason: 'useful everywhere',
      }),
    ]);
    expect(told.text).toContain('Reviews of your memories');
    expect((await briefing(agentA)).reviewOutcomes).toEqual([]);
  });

  it('leaves a rejected promotion where it was, and tells the author why', async () => {
    const { memory } = await store(agentB, project, { content: 'Agent B keeps scratch notes in tmp/' });
    const proposed = await promote(agentB, memory.id, { toScope: 'team' });
    const rejected = await decide(admin, proposed.body.id, { decision: 'reject', reason: 'too local' });
    expect(rejected.body).toMatchObject({ status: 'rejected', decisionReason: 'too local' });
    expect(await scopeOf(memory.id)).toEqual({ scope: 'project', version: 1 });
    const history = await agentB.get(memoriesUrl(project, `/${memory.id}/history`));
    expect(history.body.versions).toEqual([]);
    expect((await briefing(agentB)).reviewOutcomes).toEqual([
      expect.objectContaining({ reviewId: proposed.body.id, status: 'rejected', reason: 'too local' }),
    ]);
  });

  it("treats another author's private memory as not found, a sharee's as not its to promote, and redelivers a promoted one", async () => {
    const { memory } = await store(agentA, project, { content: 'My private hunch about the flaky test' });
    await sql(`UPDATE $schema.memories SET scope = 'private' WHERE id = $1`, [memory.id]);
    const foreign = await promote(agentB, memory.id, { toScope: 'project' });
    expect(foreign.status).toBe(404);
    expect(JSON.stringify(foreign.body)).not.toContain('flaky');

    // A share lets agent B read it, not widen it: that stays the author's call.
    const share = await agentA.post(memoriesUrl(project, `/${memory.id}/shares`), { agentId: 'agent-b' });
    expect(share.status).toBe(201);
    expect((await agentB.get(memoriesUrl(project, `/${memory.id}`))).status).toBe(200);
    const sharee = await promote(agentB, memory.id, { toScope: 'project' });
    expect(sharee).toMatchObject({ status: 403, body: { error: { code: 'not_owner' } } });
    expect((await agentA.delete(`/v1/projects/${project}/shares/${share.body.id}`)).status).toBe(204);

    // Agent B's change feed, drained once the author's feed has the memory (the horizon is past it).
    await feedUntil(agentA, undefined, memory.id);
    const before = await drain(agentB);
    expect(before.ids).not.toContain(memory.id);
    // Shared and unshared since: B heard of it only as withdrawn (its copy, if any, dropped).
    expect(before.tombstones).toContain(memory.id);

    const proposed = await promote(agentA, memory.id, { toScope: 'project' });
    expect(proposed.body).toMatchObject({ fromScope: 'private', toScope: 'project' });
    await decide(orchestrator, proposed.body.id, { decision: 'approve', reason: 'confirmed flaky' });
    expect(await scopeOf(memory.id)).toEqual({ scope: 'project', version: 2 });
    // Promoted, it is news to agent B: the feed delivers it again from where B had read.
    expect((await agentB.get(memoriesUrl(project, `/${memory.id}`))).body.scope).toBe('project');
    await feedUntil(agentB, before.cursor, memory.id);
  });

  it('answers 404 for ids of another project or tenant', async () => {
    const { memory } = await store(agentA, project, { content: 'Cross-project probes stay outside' });
    const proposed = await promote(agentA, memory.id, { toScope: 'team' });
    expect((await promote(member, memory.id, { toScope: 'team' }, otherProject)).status).toBe(404);
    expect((await decide(admin, proposed.body.id, { decision: 'approve', reason: 'x' }, otherProject)).status).toBe(
      404,
    );
    expect((await promote(outsider, memory.id, { toScope: 'team' })).status).toBe(404);
    expect((await decide(outsider, proposed.body.id, { decision: 'approve', reason: 'x' })).status).toBe(404);
    expect((await outsider.get(`/v1/projects/${project}/reviews`)).status).toBe(404);
    expect((await queue(admin)).body.items.map((item: { id: string }) => item.id)).toContain(proposed.body.id);
  });

  it('refuses malformed ids, oversized notes and decisions that do not fit the review', async () => {
    const { memory } = await store(agentA, project, { content: 'Bad input checks for promotions' });
    const refusals: [string, Promise<{ status: number }>][] = [
      ['memory id', promote(agentA, 'not-a-uuid', { toScope: 'team' })],
      ['review id', decide(orchestrator, 'not-a-uuid', { decision: 'approve', reason: 'x' })],
      ['note size', promote(agentA, memory.id, { toScope: 'team', note: 'n'.repeat(1_001) })],
      ['blank note', promote(agentA, memory.id, { toScope: 'team', note: '   ' })],
      ['private target', promote(agentA, memory.id, { toScope: 'private' })],
      ['unknown field', promote(agentA, memory.id, { toScope: 'team', force: true })],
      ['queue limit', queue(orchestrator, '?limit=0')],
      ['queue status', queue(orchestrator, '?status=open')],
    ];
    for (const [what, response] of refusals)
      expect({ what, status: (await response).status }).toEqual({ what, status: 400 });

    const proposed = await promote(agentA, memory.id, { toScope: 'team' });
    const noReason = await decide(orchestrator, proposed.body.id, { decision: 'approve' });
    expect(noReason.status).toBe(400);
    const longReason = await decide(orchestrator, proposed.body.id, { decision: 'approve', reason: 'r'.repeat(1_001) });
    expect(longReason.status).toBe(400);
    const resolution = await decide(orchestrator, proposed.body.id, { resolution: 'keep_both', reason: 'x' });
    expect(resolution).toMatchObject({ status: 400, body: { error: { code: 'decision_required' } } });
    expect(await scopeOf(memory.id)).toEqual({ scope: 'project', version: 1 });
  });

  describe('contradictions between authors', () => {
    /** A stores `old`, B stores `young` on the same subject: the pair's pending review. */
    async function contradiction(old: string, young: string) {
      const first = await store(agentA, project, { content: old });
      const second = await store(agentB, project, { content: young });
      expect(second.warnings).toContainEqual(
        expect.objectContaining({ memoryId: first.memory.id, strength: 'strong', recorded: true }),
      );
      const items = (await queue(orchestrator, '?limit=200')).body.items as any[];
      const review = items.find((item) => item.kind === 'contradiction' && item.memoryId === second.memory.id);
      expect(review).toMatchObject({
        otherMemoryId: first.memory.id,
        memory: { excerpt: young, agentWritten: true },
        otherMemory: { excerpt: old },
        proposedBy: { agentId: 'agent-b' },
      });
      return { review, oldId: first.memory.id, newId: second.memory.id };
    }
    const memoryState = async (id: string) =>
      (
        await sql<{ superseded_by: string | null; archived: boolean; deleted: boolean }>(
          `SELECT superseded_by, archived_at IS NOT NULL AS archived, deleted_at IS NOT NULL AS deleted
           FROM $schema.memories WHERE id = $1`,
          [id],
        )
      )[0];
    const untouched = { superseded_by: null, archived: false, deleted: false };

    it('keep_both changes nothing', async () => {
      const { review, oldId, newId } = await contradiction(
        'The billing API listens on port 8080',
        'The billing API listens on port 9090',
      );
      const decided = await decide(orchestrator, review.id, { resolution: 'keep_both', reason: 'two services' });
      expect(decided.body).toMatchObject({ status: 'approved', resolution: 'keep_both' });
      expect(await memoryState(oldId)).toEqual(untouched);
      expect(await memoryState(newId)).toEqual(untouched);
    });

    it('supersede retires the old memory through the supersede path', async () => {
      const { review, oldId, newId } = await contradiction(
        'Feature flag new-checkout is enabled in production',
        'Feature flag new-checkout is disabled in production',
      );
      const decided = await decide(admin, review.id, { resolution: 'supersede', reason: 'rolled back' });
      expect(decided.body).toMatchObject({ status: 'approved', resolution: 'supersede' });
      expect(await memoryState(oldId)).toEqual({ ...untouched, superseded_by: newId });
      expect(await memoryState(newId)).toEqual(untouched);
      const related = await agentA.get(memoriesUrl(project, `/${newId}/related?type=supersedes`));
      expect(related.body.items).toEqual([
        expect.objectContaining({ direction: 'outgoing', memory: expect.objectContaining({ id: oldId }) }),
      ]);
      // Told to the author of the new memory, not the old one's.
      expect((await briefing(agentB)).reviewOutcomes).toContainEqual(
        expect.objectContaining({ reviewId: review.id, kind: 'contradiction', resolution: 'supersede' }),
      );
    });

    it('reject_new archives the new memory and keeps the old', async () => {
      const { review, oldId, newId } = await contradiction(
        'The primary reporting database is PostgreSQL',
        'The primary reporting database is MySQL',
      );
      const mismatched = await decide(orchestrator, review.id, {
        decision: 'approve',
        resolution: 'reject_new',
        reason: 'x',
      });
      expect(mismatched).toMatchObject({ status: 400, body: { error: { code: 'resolution_required' } } });
      const decided = await decide(orchestrator, review.id, { resolution: 'reject_new', reason: 'we run Postgres' });
      expect(decided.body).toMatchObject({ status: 'rejected', resolution: 'reject_new' });
      expect(await memoryState(newId)).toEqual({ ...untouched, archived: true });
      expect(await memoryState(oldId)).toEqual(untouched);
      expect((await decide(orchestrator, review.id, { resolution: 'keep_both', reason: 'x' })).status).toBe(409);
    });

    it('queues an edit that comes to contradict another author, as a store does', async () => {
      const old = await store(agentA, project, { content: 'Nightly backups are kept for 30 days' });
      const edited = await store(agentB, project, { content: 'Backups of the wiki are exported weekly to S3' });
      const patched = await agentB.patch(memoriesUrl(project, `/${edited.memory.id}`), {
        content: 'Nightly backups are kept for 7 days',
      });
      expect(patched.status).toBe(200);
      expect(patched.body.warnings).toContainEqual(
        expect.objectContaining({ memoryId: old.memory.id, strength: 'strong', recorded: true }),
      );
      const items = (await queue(orchestrator, '?limit=200')).body.items as any[];
      expect(items).toContainEqual(
        expect.objectContaining({ kind: 'contradiction', memoryId: edited.memory.id, otherMemoryId: old.memory.id }),
      );
    });

    it("leaves one author's own contradictions as a warning only", async () => {
      await store(agentA, project, { content: 'Strict mode is true for the TypeScript build' });
      const second = await store(agentA, project, { content: 'Strict mode is false for the TypeScript build' });
      expect(second.warnings).toContainEqual(expect.objectContaining({ strength: 'strong', recorded: true }));
      const items = (await queue(orchestrator, '?limit=200')).body.items as any[];
      expect(items.filter((item) => item.memoryId === second.memory.id)).toEqual([]);
    });
  });
});
