import { randomBytes } from 'node:crypto';
import { type TestingModule } from '@nestjs/testing';
import { EmbeddingsModule, EmbeddingTargetsModule, EmbeddingWorkerModule, HashEmbedder } from '@cairn/embeddings';
import { JobsModule } from '@cairn/jobs';
import { ProjectsModule } from '@cairn/projects';
import { SearchModule } from '@cairn/search';
import { MemoryModule } from '@cairn/memory';
import { TenancyModule } from '@cairn/tenancy';
import { createDbTestingModule, createProject, issueToken, runJob, testConfig, testRedisUrl } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';
import { importLine, memoriesUrl, type MemoryWorld, memoryWorld } from './memory-fixtures';

const words = (n: number) => Array.from({ length: n }, () => randomBytes(4).toString('hex')).join(' ');
const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);
const key = (pair: { a: string; b: string }) => `${pair.a}/${pair.b}`;

/**
 * `GET …/memories/duplicates` a page at a time (issue 13): each page examines a bounded
 * number of memories through indexes, and following `nextCursor` lists every pair once.
 */
describe('memory duplicates: index-backed pages', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let worker: TestingModule;

  beforeAll(async () => {
    api = await startApi({ QUEUE_PREFIX: `dup${randomBytes(4).toString('hex')}` });
    w = await memoryWorld(api);
    // The worker's embedding path, driven directly so the test decides when vectors exist.
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

  /** Imports memories with the given contents, the first newest, one minute apart; returns their ids. */
  async function seed(project: string, contents: readonly string[]): Promise<string[]> {
    const now = Date.now();
    const lines = contents.map((content, index) => {
      const at = new Date(now - (index + 1) * 60_000).toISOString();
      return importLine({ content, createdAt: at, updatedAt: at });
    });
    const header = { format: 'cairn.memories', version: 1, project, exportedAt: new Date().toISOString() };
    const text = [header, ...lines].map((line) => JSON.stringify(line)).join('\n');
    const response = await w.member.request('POST', memoriesUrl(project, '/import'), text, {
      'content-type': 'application/x-ndjson',
    });
    expect(response.status).toBe(200);
    return lines.map((line) => line.id);
  }

  it('lists every pair of a 450-memory project once across pages, and nothing of another project', async () => {
    const project = (await createProject(api.admin, w.tenant.slug)).slug;
    // A reader of this project only: reading duplicates needs nothing more.
    const reader = api.client.as(
      (await issueToken(api.admin, w.tenant.slug, { role: 'reader', projects: [project] })).token,
    );
    const contents = Array.from({ length: 450 }, (_, i) => `Filler ${i} ${words(6)}`);
    // Copies up to case and whitespace, spread so the walk meets them on different pages.
    const copy = `The deploy key rotates every ninety days ${words(2)}`;
    contents[0] = copy;
    contents[250] = `  ${copy.toUpperCase()} `;
    contents[420] = copy.replace(/ /g, '   ');
    const pair = `Staging database snapshots are taken nightly ${words(2)}`;
    contents[100] = pair;
    contents[101] = pair.toLowerCase();
    // Near-identical text: a vector pair once embedded, never an equal-text one.
    contents[150] = 'Production deploys run every Friday after the morning standup with the release captain';
    contents[350] = 'Production deploys run every Friday after the standup with the release captain present';
    const ids = await seed(project, contents);
    // The same text in another project of the tenant: never a partner.
    await seed(w.otherProject, [copy, pair]);

    const hash = new HashEmbedder();
    const expected = cosine(hash.embedOne(contents[150]), hash.embedOne(contents[350]));
    expect(expected).toBeGreaterThan(0.6);
    const threshold = Math.floor(expected * 100) / 100;
    for (let i = 0; i < ids.length; i += 100) {
      const batch = ids.slice(i, i + 100);
      const embedded = await runJob(worker, 'embeddings', 'embed', {
        tenantId: w.tenant.id,
        target: 'memory',
        ids: batch,
      });
      expect(embedded.status).toBe('done');
    }

    const ordered = (x: string, y: string) => (x < y ? `${x}/${y}` : `${y}/${x}`);
    const [c0, c250, c420, p100, p101, v150, v350] = [0, 250, 420, 100, 101, 150, 350].map((i) => ids[i]);
    const want = [
      ordered(c0, c250),
      ordered(c0, c420),
      ordered(c250, c420),
      ordered(p100, p101),
      ordered(v150, v350),
    ].sort();

    const list = async (query: string) => {
      const pages: any[] = [];
      let cursor: string | null = null;
      do {
        const response: { status: number; body: any } = await reader.get(
          memoriesUrl(project, `/duplicates?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`),
        );
        expect(response.status).toBe(200);
        pages.push(response.body);
        cursor = response.body.nextCursor;
        expect(pages.length).toBeLessThan(100);
      } while (cursor);
      return { pages, pairs: pages.flatMap((page) => page.pairs) };
    };

    // Whole pages: 450 memories need more than one, and each page stays bounded.
    const wide = await list(`threshold=${threshold}&limit=200`);
    expect(wide.pages.length).toBeGreaterThan(1);
    expect(wide.pairs.map(key).sort()).toEqual(want);
    // One pair per page: the cursor also resumes inside one memory's partners.
    const narrow = await list(`threshold=${threshold}&limit=1`);
    expect(narrow.pairs.map(key).sort()).toEqual(want);
    expect(narrow.pages.every((page) => page.pairs.length <= 1)).toBe(true);

    const byKey = new Map(wide.pairs.map((p: any) => [key(p), p]));
    expect(byKey.get(ordered(c0, c420))).toMatchObject({ similarity: 1, reason: 'same_content' });
    expect(byKey.get(ordered(v150, v350))).toMatchObject({ reason: 'similar_vector' });
    expect(byKey.get(ordered(v150, v350)).similarity).toBeCloseTo(expected, 4);
    // Only memories of this project are named, each pair's both memories included.
    const named = new Set(wide.pages.flatMap((page) => page.memories.map((m: any) => m.id)));
    expect([...named].sort()).toEqual([c0, c250, c420, p100, p101, v150, v350].sort());
    for (const page of wide.pages) for (const memory of page.memories) expect(memory.project).toBe(project);

    // A stricter threshold keeps the equal texts only.
    const strict = await list('threshold=1');
    expect(strict.pairs.every((p: any) => p.reason === 'same_content')).toBe(true);
    expect(strict.pairs).toHaveLength(4);
  });

  it('refuses a cursor it did not make with 400, never a database error', async () => {
    const forged = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    for (const cursor of [
      'not-a-cursor',
      forged(['1700000000000000', 'not-a-uuid', 0]),
      forged(['99999999999999999999', '00000000-0000-4000-8000-000000000000', 0]),
      forged(['1700000000000000', '00000000-0000-4000-8000-000000000000', 99]),
      forged({ at: '1' }),
    ]) {
      const response = await w.reader.get(memoriesUrl(w.project, `/duplicates?cursor=${encodeURIComponent(cursor)}`));
      expect({ cursor, status: response.status, code: response.body.error?.code }).toEqual({
        cursor,
        status: 400,
        code: 'bad_cursor',
      });
    }
  });
});
