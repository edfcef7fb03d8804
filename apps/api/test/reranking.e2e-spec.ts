import { type FakeModelServer, startFakeModelServer } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

const MODEL = 'bge-reranker-v2-m3';
const KEY = 'rk-e2e-0123456789abcdef';
const QUERY = 'how do staging deploys work?';

interface Hit {
  memory: { id: string; content: string };
  score: number;
  explain?: { fused: number; rerank?: { score: number; rank: number; fusedRank: number } };
}
interface Report {
  notes: string[];
  rerank?: { model: string; candidates: number; applied: boolean; ms: number };
}

/**
 * Recall and knowledge-base search with a cross-encoder configured (RERANK_URL, here the
 * in-test model server's `/v1/rerank`): its order wins among the first RERANK_CANDIDATES, the
 * rest keep the fused order, and a reranker that stalls or fails costs at most the budget and
 * leaves the fused order, with a note.
 */
describe('reranking over REST', () => {
  let server: FakeModelServer;
  let api: ApiHarness;
  let w: MemoryWorld;
  /** Contents in fused order, as a search finds them when the reranker does not answer. */
  let fused: string[];

  const recall = (body: Record<string, unknown> = {}) =>
    w.agent.post(memoriesUrl(w.project, '/search'), { query: QUERY, limit: 5, explain: true, ...body });
  const contents = (response: { body: { results: Hit[] } }) => response.body.results.map((hit) => hit.memory.content);
  const rerankCalls = () => server.requests.filter((request) => request.path === '/v1/rerank');

  beforeAll(async () => {
    server = await startFakeModelServer({ models: [MODEL], apiKey: KEY });
    api = await startApi({
      RERANK_URL: server.url,
      RERANK_MODEL: MODEL,
      RERANK_API_KEY: KEY,
      RERANK_CANDIDATES: '3',
      RERANK_TIMEOUT_MS: '1000',
    });
    w = await memoryWorld(api);
    for (const content of [
      'Staging deploys run from the main branch after CI passes; deploys to staging are automatic',
      'Staging deploys need a green build and a reviewer on the deploy ticket',
      'The staging environment is refreshed nightly from a production snapshot',
      'Production deploys are manual and happen on Tuesdays',
      'Deploys are announced in the #releases channel',
    ]) {
      await store(w.agent, w.project, { content });
    }
    await store(w.agent, w.project, { content: 'Lunch is at noon', keywords: ['food'] });

    // The fused order, seen through a reranker that answers 503.
    server.fail({ type: 'status', status: 503, path: '/v1/rerank' });
    const baseline = await recall();
    expect(baseline.status).toBe(200);
    expect(baseline.body.report.notes).toContain('the reranker is unavailable: kept the fused order');
    fused = contents(baseline);
    expect(fused).toHaveLength(5);
  });
  afterAll(async () => {
    await api?.close();
    await server?.close();
  });
  afterEach(() => {
    server.options.rerankScore = undefined;
    server.options.latencyMs = 0;
  });

  /** A reranker that prefers the fused third, then the second, then the first (the rest are never sent). */
  const reverseTheHead = () => {
    const scores = new Map([
      [fused[0], 0.1],
      [fused[1], 0.5],
      [fused[2], 0.9],
    ]);
    server.options.rerankScore = (_query, document) => scores.get(document) ?? 1;
  };

  it("orders the first RERANK_CANDIDATES by the reranker's score, keeps the rest after them, and explains it", async () => {
    reverseTheHead();
    const before = rerankCalls().length;
    const found = await recall();
    expect(found.status).toBe(200);
    expect(contents(found)).toEqual([fused[2], fused[1], fused[0], fused[3], fused[4]]);
    const hits = found.body.results as Hit[];
    expect(hits.map((hit) => hit.explain?.rerank)).toEqual([
      { score: 0.9, rank: 1, fusedRank: 3 },
      { score: 0.5, rank: 2, fusedRank: 2 },
      { score: 0.1, rank: 3, fusedRank: 1 },
      undefined,
      undefined,
    ]);
    const report = found.body.report as Report;
    expect(report.rerank).toMatchObject({ model: MODEL, candidates: 3, applied: true });
    expect(report.notes.join(' ')).not.toContain('reranker');

    // One call, with the key, the question and the first three contents.
    const calls = rerankCalls().slice(before);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(calls[0]?.body).toEqual({ model: MODEL, query: QUERY, documents: fused.slice(0, 3), top_n: 3 });
  });

  it('fetches RERANK_CANDIDATES even for a shorter page, so the reranker can lift a result onto it', async () => {
    reverseTheHead();
    const found = await recall({ limit: 2 });
    expect(contents(found)).toEqual([fused[2], fused[1]]);
  });

  it('sends a short memory with its keywords', async () => {
    await recall({ query: 'when is lunch?', limit: 1 });
    expect(rerankCalls().at(-1)?.body.documents).toContain('Lunch is at noon\nfood');
  });

  it('reranks a recall across projects too', async () => {
    reverseTheHead();
    const found = await w.agent.post('/v1/memories/search', { query: QUERY, limit: 3 });
    expect(found.status).toBe(200);
    expect(contents(found)).toEqual([fused[2], fused[1], fused[0]]);
    expect(found.body.report.rerank).toMatchObject({ model: MODEL, applied: true });
  });

  it('returns on time with the fused order and a note when the reranker stalls past the budget', async () => {
    reverseTheHead();
    server.fail({ type: 'hang', path: '/v1/rerank' });
    const started = Date.now();
    const found = await recall();
    const elapsed = Date.now() - started;
    expect(found.status).toBe(200);
    expect(contents(found)).toEqual(fused);
    const report = found.body.report as Report;
    expect(report.notes).toContain('the reranker did not answer within 1000 ms: kept the fused order');
    expect(report.rerank).toMatchObject({ model: MODEL, applied: false });
    expect(report.rerank!.ms).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(3_000);
    expect((found.body.results as Hit[]).every((hit) => hit.explain?.rerank === undefined)).toBe(true);
  });

  it('keeps the fused order on a body that is not JSON or on indexes that name no candidate', async () => {
    server.fail({ type: 'malformed', path: '/v1/rerank' });
    expect(contents(await recall())).toEqual(fused);
    server.fail({
      type: 'rerank-results',
      path: '/v1/rerank',
      results: [
        { index: 3, relevance_score: 1 },
        { index: -1, relevance_score: 1 },
      ],
    });
    const confused = await recall();
    expect(contents(confused)).toEqual(fused);
    expect(confused.body.report.notes).toContain('the reranker scored none of the candidates: kept the fused order');
  });

  it('reranks knowledge-base passages by their text', async () => {
    const docs = `/v1/projects/${w.project}/kb/documents`;
    const texts = [
      'Runbook: staging deploys are triggered by merging to main.',
      'Runbook: staging deploys can be rolled back with the deploy tool.',
      'Runbook: the staging database is reset every night.',
    ];
    for (const [index, text] of texts.entries()) {
      expect((await w.agent.post(docs, { source: `docs/runbook-${index}.md`, text })).status).toBe(201);
    }
    server.options.rerankScore = (_query, document) => (document.includes('rolled back') ? 0.9 : 0.1);
    const found = await w.agent.post(`/v1/projects/${w.project}/kb/search`, {
      query: 'staging deploys',
      mode: 'keyword',
      explain: true,
    });
    expect(found.status).toBe(200);
    expect(found.body.results[0].text).toBe(texts[1]);
    expect(found.body.results[0].explain.rerank).toMatchObject({ score: 0.9, rank: 1 });
    expect(found.body.report.rerank).toMatchObject({ model: MODEL, applied: true });
    expect(rerankCalls().at(-1)?.body.documents).toEqual(expect.arrayContaining(texts));
  });

  it('counts calls by outcome and measures their latency', async () => {
    const metrics = String((await api.client.get('/metrics')).body);
    for (const outcome of ['ok', 'timeout', 'error']) {
      expect(metrics).toMatch(new RegExp(`cairn_rerank_requests_total\\{outcome="${outcome}"\\} [1-9]`));
    }
    expect(metrics).toMatch(/cairn_rerank_latency_seconds_count [1-9]/);
  });

  it('calls the reranker after the transaction, so a slow one holds no database connection', async () => {
    // One pooled connection: a search that held it while the reranker thought would stall every request.
    const single = await startApi({
      RERANK_URL: server.url,
      RERANK_MODEL: MODEL,
      RERANK_API_KEY: KEY,
      RERANK_TIMEOUT_MS: '5000',
      DATABASE_POOL_MAX: '1',
    });
    try {
      const world = await memoryWorld(single);
      await store(world.agent, world.project, { content: 'Billing statements are rendered by the ledger service' });
      server.options.latencyMs = 1_500;
      const before = rerankCalls().length;
      let searchDone = false;
      const searching = world.agent
        .post(memoriesUrl(world.project, '/search'), { query: 'who renders billing statements?' })
        .finally(() => (searchDone = true));
      while (rerankCalls().length === before) await new Promise((resolve) => setTimeout(resolve, 10));
      // The reranker is still thinking; a request that needs the database gets the connection now.
      const listed = await world.agent.get(memoriesUrl(world.project));
      expect(listed.status).toBe(200);
      expect(searchDone).toBe(false);
      expect((await searching).body.report.rerank).toMatchObject({ applied: true });
    } finally {
      server.options.latencyMs = 0;
      await single.close();
    }
  });
});

describe('without RERANK_URL', () => {
  let api: ApiHarness;
  afterAll(() => api?.close());

  it('searches as before: no reranking in the report or the explanations', async () => {
    api = await startApi();
    const w = await memoryWorld(api);
    await store(w.agent, w.project, { content: 'Staging deploys run from the main branch' });
    const found = await w.agent.post(memoriesUrl(w.project, '/search'), { query: 'staging deploys', explain: true });
    expect(found.status).toBe(200);
    expect(found.body.report).not.toHaveProperty('rerank');
    expect(found.body.results[0].explain).not.toHaveProperty('rerank');
    expect(String((await api.client.get('/metrics')).body)).not.toMatch(/cairn_rerank_requests_total\{/);
  });
});
