import { randomBytes, randomUUID } from 'node:crypto';
import { type TestingModule } from '@nestjs/testing';
import { EmbeddingsModule, EmbeddingTargetsModule, EmbeddingWorkerModule, HashEmbedder } from '@cairn/embeddings';
import { JobsModule } from '@cairn/jobs';
import { ProjectsModule } from '@cairn/projects';
import { SearchModule } from '@cairn/search';
import { AccessRecorder, MemoryModule } from '@cairn/memory';
import { TenancyModule } from '@cairn/tenancy';
import {
  createDbTestingModule,
  createProject,
  issueToken,
  runJob,
  type TestClient,
  testConfig,
  testRedisUrl,
} from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';
import { importLine, memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

const DAY_MS = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY_MS).toISOString();

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  for (let i = 0; i < a.length; i += 1) dot += (a[i] ?? 0) * (b[i] ?? 0);
  return dot;
}

describe('memory hygiene: decay, prune, restore, duplicates, merge', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let anyReader: TestClient;
  /** The worker's embedding path, driven directly so tests decide when vectors exist. */
  let worker: TestingModule;

  beforeAll(async () => {
    // Own queue prefixes: the api's jobs stay in this file, and the consumer started by
    // EmbeddingWorkerModule listens where nothing is queued, so it never embeds behind our back;
    // no inline embedding either (a stored memory would have its vector when the store answers).
    api = await startApi({ QUEUE_PREFIX: `hyg${randomBytes(4).toString('hex')}`, EMBEDDING_INLINE: 'false' });
    w = await memoryWorld(api);
    anyReader = api.client.as((await issueToken(api.admin, w.tenant.slug, { role: 'reader', projects: '*' })).token);
    const config = testConfig(
      api.database.url,
      testRedisUrl(),
      { QUEUE_PREFIX: `idle${randomBytes(4).toString('hex')}` },
      'worker',
    );
    worker = await createDbTestingModule(config, [
      TenancyModule,
      ProjectsModule,
      JobsModule,
      EmbeddingsModule,
      EmbeddingTargetsModule,
      SearchModule,
      MemoryModule,
      EmbeddingWorkerModule,
    ]);
  });
  afterAll(async () => {
    await worker.close();
    await api.close();
  });

  const freshProject = async () => (await createProject(api.admin, w.tenant.slug)).slug;
  const get = async (project: string, id: string) => {
    const response = await anyReader.get(memoriesUrl(project, `/${id}`));
    expect(response.status).toBe(200);
    return response.body;
  };
  /**
   * The change feed from `since`, retried until at least `atLeast` items are ready: the horizon
   * is cluster-wide, so another test file's open transaction can delay (never lose) a change.
   */
  const changedIds = async (project: string, since?: string, atLeast = 0) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const response = await anyReader.get(
        memoriesUrl(project, `/changes?limit=1000${since ? `&since=${since}` : ''}`),
      );
      expect(response.body.hasMore).toBe(false);
      const ids: string[] = response.body.items.map((item: any) => item.memory?.id ?? item.id);
      if (ids.length >= atLeast || Date.now() > deadline) return { ids, cursor: response.body.nextCursor as string };
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  /** A cursor past the given rows, once the feed has delivered them. */
  const cursorAfter = async (project: string, ids: readonly string[]) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { ids: seen, cursor } = await changedIds(project);
      if (ids.every((id) => seen.includes(id)) || Date.now() > deadline) return cursor;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };

  /** Seeds memories with a past (created, accessed, archived) through the import API; returns their ids. */
  async function seed(project: string, overrides: Record<string, unknown>[]): Promise<string[]> {
    const lines = overrides.map((override, index) =>
      importLine({
        content: `Seeded fact ${index} ${randomBytes(3).toString('hex')}`,
        createdAt: daysAgo(1),
        updatedAt: daysAgo(1),
        ...override,
      }),
    );
    const header = { format: 'cairn.memories', version: 1, project, exportedAt: new Date().toISOString() };
    const text = [header, ...lines].map((line) => JSON.stringify(line)).join('\n');
    const response = await w.member.request('POST', memoriesUrl(project, '/import'), text, {
      'content-type': 'application/x-ndjson',
    });
    expect(response.status).toBe(200);
    return lines.map((line) => line.id);
  }

  describe('decay', () => {
    it('takes one step off unused, unpinned, live memories and nothing else', async () => {
      const project = await freshProject();
      const old = { createdAt: daysAgo(60), updatedAt: daysAgo(60) };
      const [unused, pinned, recent, readLately, floored, archived, wide] = (await seed(project, [
        { ...old, content: 'Decay check: nobody reads this one' },
        { ...old, pinned: true },
        {},
        { ...old, lastAccessedAt: daysAgo(3), accessCount: 2 },
        { ...old, confidence: 0.05 },
        { ...old, archived: true, archivedAt: daysAgo(40) },
        { ...old, scope: 'tenant' },
      ])) as [string, string, string, string, string, string, string];
      const before = await get(project, unused);
      const cursor = await cursorAfter(project, [unused, pinned, recent, readLately, floored, archived, wide]);

      const response = await w.member.post(memoriesUrl(project, '/decay'), {});
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ decayed: 1 });
      expect((await get(project, unused)).confidence).toBe(0.76);
      for (const id of [pinned, recent, readLately, archived, wide])
        expect((await get(project, id)).confidence).toBe(0.8);
      expect((await get(project, floored)).confidence).toBe(0.05);
      // Not a content change: no new version, no updatedAt, nothing in the change feed.
      expect(await get(project, unused)).toMatchObject({ version: 1, updatedAt: before.updatedAt });
      expect((await changedIds(project, cursor)).ids).toEqual([]);

      const steep = await w.admin.post(memoriesUrl(project, '/decay'), { factor: 0.5, floor: 0.5, olderThanDays: 30 });
      expect(steep.body).toEqual({ decayed: 1 });
      expect((await get(project, unused)).confidence).toBe(0.5);
      expect((await w.admin.post(memoriesUrl(project, '/decay'), { factor: 0.5, floor: 0.5 })).body).toEqual({
        decayed: 0,
      });

      // The other half: reading a memory raises its confidence again.
      const recall = await w.member.post(memoriesUrl(project, '/search'), {
        query: 'nobody reads this',
        mode: 'keyword',
      });
      expect(recall.body.results.map((hit: any) => hit.memory.id)).toContain(unused);
      await api.app.get(AccessRecorder).flush();
      expect((await get(project, unused)).confidence).toBe(0.52);

      expect((await w.member.post(memoriesUrl(project, '/decay'), { includeTenantWide: true })).body).toEqual({
        decayed: 1,
      });
      expect((await get(project, wide)).confidence).toBe(0.76);
    });

    it('touches tenant-wide memories only for tokens scoped to every project', async () => {
      const narrow = api.client.as(
        (await issueToken(api.admin, w.tenant.slug, { role: 'member', projects: [w.project] })).token,
      );
      const response = await narrow.post(memoriesUrl(w.project, '/decay'), { includeTenantWide: true });
      expect(response.status).toBe(403);
      expect(response.body.error.code).toBe('scope_too_narrow');
      expect((await narrow.post(memoriesUrl(w.project, '/decay'), {})).status).toBe(200);
    });
  });

  describe('prune and restore', () => {
    it('archives old, unused, low-confidence memories, exempts pinned ones, and restores', async () => {
      const old = { createdAt: daysAgo(120), updatedAt: daysAgo(120), confidence: 0.2 };
      const [doomed, pinned, confident, recent, readLately] = (await seed(w.project, [
        old,
        { ...old, pinned: true },
        { ...old, confidence: 0.9 },
        { ...old, createdAt: daysAgo(10), updatedAt: daysAgo(10) },
        { ...old, lastAccessedAt: daysAgo(5), accessCount: 1 },
      ])) as [string, string, string, string, string];

      const dry = await w.admin.post(memoriesUrl(w.project, '/prune'), { dryRun: true });
      expect(dry.status).toBe(200);
      expect(dry.body).toEqual({ archived: [doomed], dryRun: true });
      expect((await get(w.project, doomed)).archived).toBe(false);

      const cursor = await cursorAfter(w.project, [doomed, pinned, confident, recent, readLately]);
      const pruned = await w.member.post(memoriesUrl(w.project, '/prune'), {});
      expect(pruned.body).toEqual({ archived: [doomed], dryRun: false });
      expect((await get(w.project, doomed)).archived).toBe(true);
      for (const id of [pinned, confident, recent, readLately]) expect((await get(w.project, id)).archived).toBe(false);
      const listed = await anyReader.get(memoriesUrl(w.project, '?limit=200'));
      expect(listed.body.items.map((m: any) => m.id)).not.toContain(doomed);
      // Archiving is a state change: the change feed carries it.
      expect((await changedIds(w.project, cursor, 1)).ids).toEqual([doomed]);
      expect((await w.member.post(memoriesUrl(w.project, '/prune'), {})).body.archived).toEqual([]);

      const restoreUrl = memoriesUrl(w.project, `/${doomed}/restore`);
      expect((await w.reader.post(restoreUrl)).status).toBe(403);
      const notOwner = await w.otherAgent.post(restoreUrl);
      expect(notOwner.status).toBe(403);
      expect(notOwner.body.error.code).toBe('not_owner');
      const restored = await w.agent.post(restoreUrl);
      expect(restored.status).toBe(200);
      expect(restored.body).toMatchObject({ id: doomed, archived: false, lastAccessedAt: expect.any(String) });
      expect((await w.member.post(restoreUrl)).body.archived).toBe(false);
      // Restoring counts as use: the next prune leaves it alone.
      expect((await w.member.post(memoriesUrl(w.project, '/prune'), { dryRun: true })).body.archived).toEqual([]);
    });

    it('lets maintainers prune and decay, and refuses agents and readers', async () => {
      for (const [client, status] of [
        [w.agent, 403],
        [w.reader, 403],
        [w.member, 200],
        [w.admin, 200],
      ] as const) {
        const prune = await client.post(memoriesUrl(w.project, '/prune'), { dryRun: true });
        const decay = await client.post(memoriesUrl(w.project, '/decay'), { olderThanDays: 3650 });
        expect([prune.status, decay.status]).toEqual([status, status]);
      }
    });
  });

  describe('duplicates', () => {
    it('pairs equal text at once and near-identical vectors of the active model once embedded', async () => {
      const project = await freshProject();
      const put = async (content: string) => (await store(w.member, project, { content })).memory.id;
      const a = await put('The API listens on port 8080 behind the load balancer');
      const b = await put('  the api LISTENS on port 8080   behind the load balancer ');
      const c = await put('Deploys to production run every Friday after the morning standup');
      const d = await put('Deploys to production run every Friday after the standup meeting');
      const e = await put('The billing service retries failed webhooks three times with backoff');
      const url = (query: string) => memoriesUrl(project, `/duplicates?${query}`);
      const hash = new HashEmbedder();
      const expected = cosine(
        hash.embedOne((await get(project, c)).content),
        hash.embedOne((await get(project, d)).content),
      );
      expect(expected).toBeGreaterThan(0.6);
      expect(expected).toBeLessThan(0.99);
      const threshold = Math.floor(expected * 100) / 100;

      const textOnly = await anyReader.get(url(`threshold=${threshold}`));
      expect(textOnly.status).toBe(200);
      const [lowAB, highAB] = a < b ? [a, b] : [b, a];
      expect(textOnly.body.pairs).toEqual([{ a: lowAB, b: highAB, similarity: 1, reason: 'same_content' }]);

      const embedded = await runJob(worker, 'embeddings', 'embed', {
        tenantId: w.tenant.id,
        target: 'memory',
        ids: [a, b, c, d, e],
      });
      expect(embedded.status).toBe('done');
      for (const id of [a, b, c, d, e]) expect((await get(project, id)).embedded).toBe(true);
      const both = await anyReader.get(url(`threshold=${threshold}`));
      const [lowCD, highCD] = c < d ? [c, d] : [d, c];
      expect(both.body.pairs).toEqual([
        { a: lowAB, b: highAB, similarity: 1, reason: 'same_content' },
        { a: lowCD, b: highCD, similarity: expect.any(Number), reason: 'similar_vector' },
      ]);
      expect(both.body.pairs[1].similarity).toBeCloseTo(expected, 4);
      expect(both.body.memories.map((m: any) => m.id).sort()).toEqual([a, b, c, d].sort());
      expect((await anyReader.get(url(`threshold=${Math.min(1, threshold + 0.02)}`))).body.pairs).toHaveLength(1);
      expect((await anyReader.get(url(`threshold=${threshold}&limit=1`))).body.pairs).toHaveLength(1);

      // A vector made from older content is not current: it takes no part until re-embedded.
      expect((await w.member.patch(memoriesUrl(project, `/${d}`), { keywords: ['release train'] })).status).toBe(200);
      expect((await anyReader.get(url('threshold=0.5'))).body.pairs.map((p: any) => p.reason)).toEqual([
        'same_content',
      ]);
      await runJob(worker, 'embeddings', 'embed', { tenantId: w.tenant.id, target: 'memory', ids: [d] });
      expect((await anyReader.get(url('threshold=0.5'))).body.pairs.map((p: any) => p.reason)).toEqual([
        'same_content',
        'similar_vector',
      ]);
    });

    it('answers 400 for bad parameters', async () => {
      for (const query of ['threshold=0.2', 'threshold=1.5', 'threshold=abc', 'limit=0', 'limit=201', 'window=5']) {
        const response = await anyReader.get(memoriesUrl(w.project, `/duplicates?${query}`));
        expect({ query, status: response.status }).toEqual({ query, status: 400 });
      }
    });
  });

  describe('merge', () => {
    it('folds sources into the target, keeping every history', async () => {
      const t = await store(w.agent, w.project, {
        content: 'Merge check: the job queue is BullMQ on Redis',
        tags: ['queue'],
        keywords: ['jobs'],
        importance: 2,
        confidence: 0.5,
      });
      const s1 = await store(w.agent, w.project, {
        content: 'Merge check: background work goes through BullMQ',
        tags: ['redis', 'queue'],
        keywords: ['Jobs', 'workers'],
        importance: 4,
        confidence: 0.9,
      });
      const s2 = await store(w.otherAgent, w.project, {
        content: 'Merge check: BullMQ powers background processing',
        tags: ['bullmq'],
        importance: 1,
        confidence: 0.3,
        pinned: true,
      });
      const url = memoriesUrl(w.project, `/${t.memory.id}/merge`);
      const body = { sourceIds: [s1.memory.id, s2.memory.id, s1.memory.id], reason: 'three ways to say one thing' };
      expect((await w.agent.post(url, body)).status).toBe(403);
      expect((await w.reader.post(url, body)).status).toBe(403);
      const cursor = await cursorAfter(w.project, [t.memory.id, s1.memory.id, s2.memory.id]);

      const merged = await w.member.post(url, body);
      expect(merged.status).toBe(200);
      expect(merged.body).toMatchObject({
        memory: {
          id: t.memory.id,
          content: 'Merge check: the job queue is BullMQ on Redis',
          tags: ['queue', 'redis', 'bullmq'],
          keywords: ['jobs', 'workers'],
          importance: 4,
          confidence: 0.9,
          pinned: true,
          version: 2,
        },
        sources: [s1.memory.id, s2.memory.id],
        embedding: 'queued',
      });
      for (const source of [s1, s2]) {
        expect((await get(w.project, source.memory.id)).supersededBy).toBe(t.memory.id);
        const history = await anyReader.get(memoriesUrl(w.project, `/${source.memory.id}/history`));
        expect(history.body.versions[0]).toMatchObject({
          reason: `merged into ${t.memory.id}: three ways to say one thing`,
          snapshot: expect.objectContaining({ content: source.memory.content, supersededBy: null }),
        });
      }
      const targetHistory = await anyReader.get(memoriesUrl(w.project, `/${t.memory.id}/history`));
      expect(targetHistory.body.versions).toEqual([
        expect.objectContaining({
          version: 1,
          reason: 'three ways to say one thing',
          snapshot: expect.objectContaining({ tags: ['queue'], importance: 2 }),
        }),
      ]);
      const related = await anyReader.get(memoriesUrl(w.project, `/${t.memory.id}/related?type=supersedes`));
      expect(related.body.items.map((item: any) => [item.direction, item.memory.id]).sort()).toEqual(
        [
          ['outgoing', s1.memory.id],
          ['outgoing', s2.memory.id],
        ].sort(),
      );
      const listed = await anyReader.get(memoriesUrl(w.project, '?limit=200'));
      expect(listed.body.items.map((m: any) => m.id)).not.toEqual(expect.arrayContaining([s1.memory.id]));
      expect((await changedIds(w.project, cursor, 3)).ids.sort()).toEqual(
        [t.memory.id, s1.memory.id, s2.memory.id].sort(),
      );

      const again = await w.admin.post(url, { sourceIds: [s1.memory.id] });
      expect(again.body).toMatchObject({ memory: { version: 3 }, embedding: 'unchanged' });
      const intoSource = await w.member.post(memoriesUrl(w.project, `/${s1.memory.id}/merge`), {
        sourceIds: [s2.memory.id],
      });
      expect(intoSource.status).toBe(409);
      expect(intoSource.body.error.code).toBe('target_superseded');
    });

    it('refuses itself, unknown and foreign sources, and malformed bodies', async () => {
      const t = await store(w.member, w.project, { content: 'Merge check: a target for bad requests' });
      const elsewhere = await store(w.member, w.otherProject, { content: 'Merge check: lives in another project' });
      const url = memoriesUrl(w.project, `/${t.memory.id}/merge`);
      const self = await w.member.post(url, { sourceIds: [t.memory.id] });
      expect(self.status).toBe(400);
      expect(self.body.error.code).toBe('self_merge');
      expect((await w.member.post(url, { sourceIds: [randomUUID()] })).status).toBe(404);
      expect((await w.member.post(url, { sourceIds: [elsewhere.memory.id] })).status).toBe(404);
      expect(
        (await w.member.post(memoriesUrl(w.project, `/${randomUUID()}/merge`), { sourceIds: [t.memory.id] })).status,
      ).toBe(404);
      expect((await get(w.otherProject, elsewhere.memory.id)).supersededBy).toBeNull();
    });
  });

  it('publishes the sync and hygiene routes in the OpenAPI document', async () => {
    const doc = await api.admin.get('/docs/json');
    expect(doc.status).toBe(200);
    const base = '/v1/projects/{project}/memories';
    expect(Object.keys(doc.body.paths)).toEqual(
      expect.arrayContaining(
        ['/changes', '/export', '/import', '/decay', '/prune', '/duplicates', '/{id}/restore', '/{id}/merge'].map(
          (path) => `${base}${path}`,
        ),
      ),
    );
    expect(Object.keys(doc.body.paths[`${base}/import`].post.requestBody.content)).toEqual(['application/x-ndjson']);
  });

  it('answers clean 400s for bad input on every hygiene route', async () => {
    const id = randomUUID();
    const cases: [string, unknown[]][] = [
      [
        '/decay',
        [
          { factor: 0.4 },
          { factor: 1.5 },
          { olderThanDays: 0 },
          { olderThanDays: 1.5 },
          { floor: 2 },
          { floor: '0.1' },
          { includeTenantWide: 'yes' },
          { bogus: 1 },
        ],
      ],
      [
        '/prune',
        [
          { maxConfidence: -1 },
          { maxConfidence: 2 },
          { dryRun: 'yes' },
          { limit: 0 },
          { olderThanDays: 99_999 },
          { bogus: 1 },
        ],
      ],
      [
        `/${id}/merge`,
        [
          {},
          { sourceIds: [] },
          { sourceIds: Array.from({ length: 21 }, () => randomUUID()) },
          { sourceIds: ['not-a-uuid'] },
          { sourceIds: randomUUID() },
          { sourceIds: [randomUUID()], reason: '' },
          { sourceIds: [randomUUID()], reason: 'x'.repeat(501) },
          { sourceIds: [randomUUID()], bogus: 1 },
        ],
      ],
    ];
    for (const [route, bodies] of cases) {
      for (const body of [...bodies, '[]', 'null', '"text"', '{bad json', undefined]) {
        const response = await w.member.request('POST', memoriesUrl(w.project, route), body);
        expect({ route, body, status: response.status }).toEqual({ route, body, status: 400 });
        expect(response.body.error.code).toMatch(/^(validation_failed|invalid_json|bad_request)$/);
        expect(response.body.correlationId).toEqual(expect.any(String));
      }
    }
    for (const path of ['/not-a-uuid/restore', '/not-a-uuid/merge']) {
      expect((await w.member.post(memoriesUrl(w.project, path), { sourceIds: [id] })).status).toBe(400);
    }
    expect((await w.member.post(memoriesUrl(w.project, `/${id}/restore`))).status).toBe(404);
  });
});
