import { type TestingModule } from '@nestjs/testing';
import { testConfig, startWorkerContext, testRedisUrl } from '@cairn/testing';
import { WorkerModule } from '@cairn/worker-app';
import { AccessRecorder } from '@cairn/memory';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

describe('memory recall', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let worker: TestingModule;
  const search = (body: Record<string, unknown>, client = w.agent, project = w.project) =>
    client.post(memoriesUrl(project, '/search'), body);
  const ids = (response: { body: { results: { memory: { id: string } }[] } }) =>
    response.body.results.map((hit) => hit.memory.id);

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
    // The real worker app (BullMQ consumer included) on the same database and queue prefix.
    const config = testConfig(api.database.url, testRedisUrl(), { QUEUE_PREFIX: api.config.queues.prefix }, 'worker');
    worker = await startWorkerContext(WorkerModule.register(config));
  });
  afterAll(async () => {
    await worker.close();
    await api.close();
  });

  async function waitUntilEmbedded(memoryIds: string[]): Promise<void> {
    const dataSource = api.app.get(DataSource);
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const rows = await dataSource.query<{ n: string }[]>(
        `SELECT count(*) AS n FROM "${w.tenant.schema}".memories WHERE id = ANY($1::uuid[]) AND embedded_hash = content_hash`,
        [memoryIds],
      );
      if (Number(rows[0]?.n) === memoryIds.length) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('memories were not embedded by the worker within 10 s');
  }

  it('finds a memory by keyword the moment it is stored, before any vector exists', async () => {
    const { memory } = await store(w.agent, w.project, { content: 'Kubernetes namespaces are named after teams' });
    const found = await search({ query: 'what are kubernetes namespaces named after?', mode: 'keyword' });
    expect(found.status).toBe(200);
    expect(ids(found)[0]).toBe(memory.id);
    expect(found.body.report).toMatchObject({ requestedMode: 'keyword', mode: 'keyword' });
  });

  it('answers natural-language questions without needing every word to match', async () => {
    const { memory } = await store(w.agent, w.project, {
      content: 'Payments are retried three times with exponential backoff before the order is cancelled',
      keywords: ['billing', 'retry policy'],
    });
    await store(w.agent, w.project, { content: 'The marketing site is deployed on Netlify' });
    const found = await search({ query: 'How many times do we retry a failed payment before giving up?' });
    expect(ids(found)[0]).toBe(memory.id);
    const viaKeyword = await search({ query: 'billing policy', mode: 'keyword' });
    expect(ids(viaKeyword)).toContain(memory.id);
  });

  it('ranks a precise keyword hit above a vague one, and lets importance break ties', async () => {
    const tag = 'rank-sanity';
    const { memory: precise } = await store(w.agent, w.project, {
      content: 'The Grafana dashboard for checkout latency lives in the observability folder',
      tags: [tag],
      importance: 1,
    });
    const { memory: vague } = await store(w.agent, w.project, {
      content: 'Dashboards exist for several services',
      tags: [tag],
      importance: 5,
    });
    const ranked = await search({
      query: 'grafana checkout latency dashboard',
      mode: 'keyword',
      filters: { tags: [tag] },
    });
    expect(ids(ranked)).toEqual([precise.id, vague.id]);

    const { memory: low } = await store(w.agent, w.project, {
      content: 'Feature flags live in LaunchDarkly',
      importance: 2,
      tags: ['tie'],
    });
    const { memory: high } = await store(w.agent, w.project, {
      content: 'Feature flags live in LaunchDarkly',
      importance: 5,
      tags: ['tie'],
    });
    const tied = await search({
      query: 'where do feature flags live',
      mode: 'keyword',
      filters: { tags: ['tie'] },
      explain: true,
    });
    expect(ids(tied)).toEqual([high.id, low.id]);
    expect(tied.body.results[0].explain.keyword.rank).toBe(tied.body.results[1].explain.keyword.rank);
  });

  it('hides superseded, archived and deleted memories by default', async () => {
    const { memory: old } = await store(w.agent, w.project, { content: 'The VPN endpoint is vpn-old.example.com' });
    const { memory: current } = await store(w.agent, w.project, {
      content: 'The VPN endpoint is vpn.example.com',
      supersedes: [old.id],
    });
    const found = await search({ query: 'vpn endpoint', mode: 'keyword' });
    expect(ids(found)).toContain(current.id);
    expect(ids(found)).not.toContain(old.id);
    const withOld = await search({ query: 'vpn endpoint', mode: 'keyword', filters: { includeSuperseded: true } });
    expect(ids(withOld)).toContain(old.id);
    await w.agent.delete(memoriesUrl(w.project, `/${current.id}`));
    expect(ids(await search({ query: 'vpn endpoint', mode: 'keyword' }))).not.toContain(current.id);
  });

  it('filters by category, tags, author and time', async () => {
    const { memory: bug } = await store(w.agent, w.project, {
      content: 'Websocket reconnect loops on Safari',
      category: 'bug',
      tags: ['frontend'],
    });
    const { memory: decision } = await store(w.otherAgent, w.project, {
      content: 'Websocket compression is enabled',
      category: 'decision',
      tags: ['backend'],
    });
    const cases: [Record<string, unknown>, (m: any) => boolean][] = [
      [{ categories: ['bug'] }, (m) => m.category === 'bug'],
      [{ tags: ['frontend'] }, (m) => m.tags.includes('frontend')],
      [{ authorAgentId: 'claude-code:alice' }, (m) => m.author.agentId === 'claude-code:alice'],
    ];
    for (const [filters, holds] of cases) {
      for (const mode of ['keyword', 'hybrid']) {
        const found = await search({ query: 'websocket', mode, filters });
        expect(ids(found)[0]).toBe(bug.id);
        expect(ids(found)).not.toContain(decision.id);
        expect(found.body.results.every((hit: any) => holds(hit.memory))).toBe(true);
      }
    }
    const future = new Date(Date.now() + 3_600_000).toISOString();
    expect(ids(await search({ query: 'websocket', filters: { createdAfter: future } }))).toEqual([]);
    expect(ids(await search({ query: 'websocket', mode: 'keyword' }))).toEqual(
      expect.arrayContaining([bug.id, decision.id]),
    );
  });

  it('records access: recalled memories gain confidence, bounded', async () => {
    const { memory } = await store(w.agent, w.project, { content: 'Sentry DSN is stored in Vault', confidence: 0.99 });
    await search({ query: 'sentry dsn vault', mode: 'keyword' });
    await search({ query: 'sentry dsn vault', mode: 'keyword' });
    // Access is written off the request path, within about a second.
    await api.app.get(AccessRecorder).flush();
    const after = await w.agent.get(memoriesUrl(w.project, `/${memory.id}`));
    expect(after.body.accessCount).toBe(2);
    expect(after.body.confidence).toBe(1);
    const peek = await search({ query: 'sentry dsn vault', mode: 'keyword' });
    expect(peek.body.results[0].memory.accessCount).toBe(2);
  });

  it('embeds through the worker and ranks with vectors in semantic and hybrid modes', async () => {
    const { memory: target } = await store(w.agent, w.project, {
      content: 'Database migrations run automatically from a Helm pre-upgrade hook job',
    });
    const { memory: other } = await store(w.agent, w.project, { content: 'Alice prefers dark mode in her editor' });
    await waitUntilEmbedded([target.id, other.id]);
    const semantic = await search({ query: 'when do the database migrations run?', mode: 'semantic', explain: true });
    expect(semantic.status).toBe(200);
    expect(ids(semantic)[0]).toBe(target.id);
    expect(semantic.body.results[0].explain.semantic.rank).toBe(1);
    expect(semantic.body.results[0].memory.embedded).toBe(true);
    expect(semantic.body.report).toMatchObject({ mode: 'semantic', embeddingModel: 'cairn-hash-v1' });
    expect(semantic.body.report.notes.join(' ')).toContain('hash embedder');
    const hybrid = await search({ query: 'migration hook helm', explain: true });
    expect(ids(hybrid)[0]).toBe(target.id);
    expect(hybrid.body.results[0].explain).toMatchObject({ keyword: { rank: 1 }, semantic: { rank: 1 } });
  });

  it('never ranks a memory by a vector made from its old content, and re-embeds it', async () => {
    const { memory } = await store(w.agent, w.project, { content: 'The cache TTL is five minutes' });
    await waitUntilEmbedded([memory.id]);
    expect(ids(await search({ query: 'cache ttl five minutes', mode: 'semantic' }))).toContain(memory.id);
    const edited = await w.agent.patch(memoriesUrl(w.project, `/${memory.id}`), {
      content: 'The cache TTL is ten minutes',
    });
    expect(edited.body.embedding).toBe('queued');
    // The edit drops the old vector in its own transaction: whatever vector the row carries
    // from then on was made from the new content.
    const [row] = await api.app.get(DataSource).query<{ model: string | null; current: boolean }[]>(
      `SELECT embedding_model AS model, embedded_hash IS NOT DISTINCT FROM content_hash AS current
         FROM "${w.tenant.schema}".memories WHERE id = $1`,
      [memory.id],
    );
    expect(row.model === null || row.current).toBe(true);
    await waitUntilEmbedded([memory.id]);
    expect(ids(await search({ query: 'cache ttl ten minutes', mode: 'semantic' }))).toContain(memory.id);
  });

  it('searches across every project the token may read, and no further', async () => {
    const { memory: here } = await store(w.wideAgent, w.project, {
      content: 'Zebra stripes identify the zebra project',
    });
    const { memory: there } = await store(w.wideAgent, w.otherProject, {
      content: 'Zebra crossings are in the other project',
    });
    const wide = await w.wideAgent.post('/v1/memories/search', { query: 'zebra', mode: 'keyword' });
    expect(wide.status).toBe(200);
    expect(ids(wide)).toEqual(expect.arrayContaining([here.id, there.id]));
    const narrow = await w.agent.post('/v1/memories/search', { query: 'zebra', mode: 'keyword' });
    expect(ids(narrow)).toContain(here.id);
    expect(ids(narrow)).not.toContain(there.id);
    const asked = await w.agent.post('/v1/memories/search', {
      query: 'zebra',
      mode: 'keyword',
      projects: [w.otherProject],
    });
    expect(ids(asked)).toEqual([]);
    expect((await search({ query: 'zebra' }, w.agent, w.otherProject)).status).toBe(403);
  });

  it('never fails on hostile, empty, huge or strange queries', async () => {
    const strange = [
      'a & b | !c',
      "'); DROP TABLE memories; --",
      ':* <-> <2> !!! ((( )))',
      'ｆｕｌｌｗｉｄｔｈ ｑｕｅｒｙ',
      'раураl homoglyph',
      '🦀 emoji 🚀',
      'tab\tand\u0007bell\u0000nul',
      'the of and to',
      'x'.repeat(4000),
      Array.from({ length: 500 }, (_, i) => `word${i}`).join(' '),
    ];
    for (const query of strange) {
      for (const mode of ['hybrid', 'keyword', 'semantic']) {
        const response = await search({ query, mode });
        expect({ query: query.slice(0, 30), mode, status: response.status }).toMatchObject({ status: 200 });
      }
    }
    for (const query of ['', '   ', '\u0000\u0007', 'x'.repeat(4001)]) {
      const response = await search({ query });
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('validation_failed');
    }
    for (const body of [
      { query: 'ok', mode: 'fuzzy' },
      { query: 'ok', limit: 0 },
      { query: 'ok', limit: 51 },
      { query: 'ok', filters: { nope: 1 } },
      { query: 7 },
    ]) {
      expect((await search(body)).status).toBe(400);
    }
  });
});
