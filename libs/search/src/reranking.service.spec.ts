import { MetricsService } from '@cairn/observability';
import { type FakeModelServer, startFakeModelServer, testConfig } from '@cairn/testing';
import { type RerankDocument, type Reranker } from './contract/reranker';
import { type Explanation } from './contract/search.types';
import { createReranker } from './http-reranker';
import { Reranking } from './reranking.service';

const MODEL = 'bge-reranker-v2-m3';
const explain: Explanation = { fused: 1, boosts: { importance: 1, recency: 1, confidence: 1, pinned: 1 }, final: 1 };

/** Fused results and their texts: the fused order is a, b, c, d. */
const TEXTS: Record<string, string> = {
  a: 'deploys run from the main branch',
  b: 'staging deploys need a green build',
  c: 'the staging deploy script lives in ops/deploy.sh',
  d: 'lunch is at noon',
};
const fused = () => Object.keys(TEXTS).map((id) => ({ id, score: 1, explain }));
const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

function stage(env: Record<string, string>, reranker?: Reranker | null) {
  const config = testConfig('postgresql://cairn@db:5432/cairn', 'redis://redis:6379', env);
  const metrics = new MetricsService();
  return {
    reranking: new Reranking(reranker === undefined ? createReranker(config) : reranker, config, metrics),
    metrics,
  };
}

async function counted(metrics: MetricsService, outcome: string): Promise<number> {
  const values = (await metrics.registry.getSingleMetric('cairn_rerank_requests_total')!.get()).values;
  return values.find((value) => value.labels.outcome === outcome)?.value ?? 0;
}

describe('Reranking against a real /v1/rerank server', () => {
  const key = 'rk-unit-0123456789';
  let server: FakeModelServer;

  beforeAll(async () => {
    server = await startFakeModelServer({ models: [MODEL], apiKey: key });
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.requests.length = 0;
    server.options.rerankScore = undefined;
  });

  const configured = (extra: Record<string, string> = {}) =>
    stage({ RERANK_URL: server.url, RERANK_MODEL: MODEL, RERANK_API_KEY: key, RERANK_TIMEOUT_MS: '2000', ...extra });

  it('is off without RERANK_URL: the order, the report and the notes are unchanged, and nothing is called', async () => {
    const { reranking } = stage({});
    expect(reranking.enabled).toBe(false);
    expect(reranking.depth(10)).toBe(10);
    const result = await reranking.rerank('staging deploy', fused(), (hit) => TEXTS[hit.id]);
    expect(result).toEqual({ ranked: fused(), notes: [] });
    expect(server.requests).toHaveLength(0);
  });

  it("sends the first RERANK_CANDIDATES with the key, and applies the reranker's order to them", async () => {
    const { reranking, metrics } = configured({ RERANK_CANDIDATES: '3' });
    expect(reranking.depth(2)).toBe(3);
    expect(reranking.depth(10)).toBe(10);
    const result = await reranking.rerank('staging deploy script', fused(), (hit) => TEXTS[hit.id]);
    expect(server.requests[0]).toMatchObject({
      path: '/v1/rerank',
      body: { model: MODEL, query: 'staging deploy script', documents: [TEXTS.a, TEXTS.b, TEXTS.c], top_n: 3 },
    });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);
    // Word overlap: c has all three words, b one ("staging"), a none; d was not sent and stays last.
    expect(ids(result.ranked)).toEqual(['c', 'b', 'a', 'd']);
    expect(result.ranked[0]?.explain.rerank).toEqual({ score: 1, rank: 1, fusedRank: 3 });
    expect(result.ranked[3]?.explain.rerank).toBeUndefined();
    expect(result.report).toMatchObject({ model: MODEL, candidates: 3, applied: true });
    expect(result.notes).toEqual([]);
    expect(await counted(metrics, 'ok')).toBe(1);
  });

  it('does not send a candidate without text; it follows those scored', async () => {
    const { reranking } = configured();
    const result = await reranking.rerank('staging deploy script', fused(), (hit) =>
      hit.id === 'c' ? '  ' : TEXTS[hit.id],
    );
    expect(server.requests[0]?.body.documents).toEqual([TEXTS.a, TEXTS.b, TEXTS.d]);
    expect(ids(result.ranked)).toEqual(['b', 'a', 'd', 'c']);
  });

  it('keeps the fused order, says why and counts a timeout when the server stalls past the budget', async () => {
    const { reranking, metrics } = configured({ RERANK_TIMEOUT_MS: '300' });
    server.fail({ type: 'hang', path: '/v1/rerank' });
    const started = Date.now();
    const result = await reranking.rerank('staging deploy script', fused(), (hit) => TEXTS[hit.id]);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(ids(result.ranked)).toEqual(['a', 'b', 'c', 'd']);
    expect(result.notes).toEqual(['the reranker did not answer within 300 ms: kept the fused order']);
    expect(result.report).toMatchObject({ model: MODEL, candidates: 4, applied: false });
    expect(result.report!.ms).toBeGreaterThanOrEqual(250);
    expect(await counted(metrics, 'timeout')).toBe(1);
  });

  it.each([
    ['a 5xx', { type: 'status', status: 503, path: '/v1/rerank' } as const],
    ['a reset connection', { type: 'reset', path: '/v1/rerank' } as const],
    ['a body that is not JSON', { type: 'malformed', path: '/v1/rerank' } as const],
    ['results of another shape', { type: 'rerank-results', path: '/v1/rerank', results: [{ i: 0 }] } as const],
  ])('keeps the fused order and counts an error on %s', async (_label, failure) => {
    const { reranking, metrics } = configured();
    server.fail(failure);
    const result = await reranking.rerank('staging deploy script', fused(), (hit) => TEXTS[hit.id]);
    expect(ids(result.ranked)).toEqual(['a', 'b', 'c', 'd']);
    expect(result.notes).toEqual(['the reranker is unavailable: kept the fused order']);
    expect(result.report?.applied).toBe(false);
    expect(await counted(metrics, 'error')).toBe(1);
  });

  it('keeps the fused order on a wrong key', async () => {
    const { reranking } = configured({ RERANK_API_KEY: 'rk-wrong' });
    const result = await reranking.rerank('staging deploy script', fused(), (hit) => TEXTS[hit.id]);
    expect(ids(result.ranked)).toEqual(['a', 'b', 'c', 'd']);
    expect(result.notes).toEqual(['the reranker is unavailable: kept the fused order']);
  });

  it('ignores entries with an index out of range, repeated or not an integer, and uses the rest', async () => {
    const { reranking } = configured();
    server.fail({
      type: 'rerank-results',
      path: '/v1/rerank',
      results: [
        { index: 9, relevance_score: 0.99 },
        { index: -1, relevance_score: 0.98 },
        { index: 1.5, relevance_score: 0.97 },
        { index: 2, relevance_score: 0.8 },
        { index: 2, relevance_score: 0.01 },
        { index: 3, relevance_score: 0.6 },
      ],
    });
    const result = await reranking.rerank('q', fused(), (hit) => TEXTS[hit.id]);
    // c and d scored; a and b, unscored, follow in fused order.
    expect(ids(result.ranked)).toEqual(['c', 'd', 'a', 'b']);
    expect(result.ranked[0]?.explain.rerank).toEqual({ score: 0.8, rank: 1, fusedRank: 3 });
    expect(result.report?.applied).toBe(true);
  });

  it('keeps the fused order when no entry names a candidate', async () => {
    const { reranking, metrics } = configured();
    server.fail({ type: 'rerank-results', path: '/v1/rerank', results: [{ index: 42, relevance_score: 1 }] });
    const result = await reranking.rerank('q', fused(), (hit) => TEXTS[hit.id]);
    expect(ids(result.ranked)).toEqual(['a', 'b', 'c', 'd']);
    expect(result.notes).toEqual(['the reranker scored none of the candidates: kept the fused order']);
    expect(await counted(metrics, 'error')).toBe(1);
  });

  it('sends the candidates in batches of RERANK_BATCH_SIZE, all at once, and ranks them together', async () => {
    const { reranking } = configured({ RERANK_BATCH_SIZE: '2' });
    server.options.latencyMs = 100;
    try {
      const result = await reranking.rerank('staging deploy script', fused(), (hit) => TEXTS[hit.id]);
      expect(server.requests.map((request) => request.body.documents)).toEqual(
        expect.arrayContaining([
          [TEXTS.a, TEXTS.b],
          [TEXTS.c, TEXTS.d],
        ]),
      );
      expect(server.peakOpenRequests('/v1/rerank')).toBeGreaterThanOrEqual(2);
      // Scores from both requests are compared: c (3 words) and b (1) rise over a and d (0).
      expect(ids(result.ranked)).toEqual(['c', 'b', 'a', 'd']);
      // Both requests were open at once (peakOpenRequests above), within one budget.
      expect(result.report).toMatchObject({ candidates: 4, applied: true });
    } finally {
      server.options.latencyMs = undefined;
    }
  });

  it('keeps the fused order when one batch of several stalls past the budget, and says how many', async () => {
    const { reranking, metrics } = configured({ RERANK_BATCH_SIZE: '2', RERANK_TIMEOUT_MS: '300' });
    server.fail({ type: 'hang', path: '/v1/rerank' });
    const result = await reranking.rerank('staging deploy script', fused(), (hit) => TEXTS[hit.id]);
    expect(server.requests).toHaveLength(2);
    expect(ids(result.ranked)).toEqual(['a', 'b', 'c', 'd']);
    expect(result.notes).toEqual([
      'the reranker did not answer within 300 ms (1 of 2 requests unanswered): kept the fused order',
    ]);
    expect(result.report?.applied).toBe(false);
    expect(await counted(metrics, 'timeout')).toBe(1);
  });

  it('keeps the fused order when one batch of several fails, though the others answered', async () => {
    const { reranking, metrics } = configured({ RERANK_BATCH_SIZE: '3' });
    server.fail({ type: 'status', status: 500, path: '/v1/rerank' });
    const result = await reranking.rerank('staging deploy script', fused(), (hit) => TEXTS[hit.id]);
    expect(server.requests).toHaveLength(2);
    expect(ids(result.ranked)).toEqual(['a', 'b', 'c', 'd']);
    expect(result.notes).toEqual(['the reranker is unavailable (a request of 2 failed): kept the fused order']);
    expect(await counted(metrics, 'error')).toBe(1);
  });

  it("speaks TEI's /rerank with RERANK_API=tei, in batches under its request cap", async () => {
    const { reranking } = configured({ RERANK_API: 'tei', RERANK_BATCH_SIZE: '2' });
    server.options.rerankMaxBatch = 2;
    try {
      const result = await reranking.rerank('staging deploy script', fused(), (hit) => TEXTS[hit.id]);
      expect(server.requests.map((request) => request.path)).toEqual(['/rerank', '/rerank']);
      expect(server.requests.map((request) => request.body)).toEqual(
        expect.arrayContaining([
          { query: 'staging deploy script', texts: [TEXTS.a, TEXTS.b], truncate: true },
          { query: 'staging deploy script', texts: [TEXTS.c, TEXTS.d], truncate: true },
        ]),
      );
      expect(ids(result.ranked)).toEqual(['c', 'b', 'a', 'd']);
      expect(result.report).toMatchObject({ model: MODEL, applied: true });

      // Past TEI's cap the server refuses the request: the fused order stands.
      const { reranking: oversized } = configured({ RERANK_API: 'tei', RERANK_BATCH_SIZE: '4' });
      const refused = await oversized.rerank('staging deploy script', fused(), (hit) => TEXTS[hit.id]);
      expect(ids(refused.ranked)).toEqual(['a', 'b', 'c', 'd']);
      expect(refused.notes).toEqual(['the reranker is unavailable: kept the fused order']);
    } finally {
      server.options.rerankMaxBatch = undefined;
    }
  });

  it('ignores TEI entries that name no text sent, and uses the rest', async () => {
    const { reranking } = configured({ RERANK_API: 'tei' });
    server.fail({
      type: 'rerank-results',
      path: '/rerank',
      results: [
        { index: 7, score: 0.99 },
        { index: 3, score: 0.9 },
        { index: 3, score: 0.1 },
        { index: 1, score: 0.5 },
      ],
    });
    const result = await reranking.rerank('q', fused(), (hit) => TEXTS[hit.id]);
    expect(ids(result.ranked)).toEqual(['d', 'b', 'a', 'c']);
  });

  it('sends nothing for an empty result list', async () => {
    const { reranking } = configured();
    expect(await reranking.rerank('q', [], () => 'x')).toEqual({ ranked: [], notes: [] });
    expect(server.requests).toHaveLength(0);
  });
});

describe('Reranking with any Reranker', () => {
  it('cancels the call when the budget runs out, and never uses a late answer', async () => {
    let aborted = false;
    const slow: Reranker = {
      model: 'slow',
      rerank: (_query: string, documents: readonly RerankDocument[], signal?: AbortSignal) =>
        new Promise((resolve, reject) => {
          const answer = setTimeout(
            () => resolve(documents.map((document, index) => ({ id: document.id, score: index }))),
            400,
          );
          signal?.addEventListener('abort', () => {
            aborted = true;
            clearTimeout(answer);
            reject(new Error('aborted'));
          });
        }),
    };
    const { reranking } = stage({ RERANK_TIMEOUT_MS: '100' }, slow);
    const result = await reranking.rerank('q', fused(), (hit) => TEXTS[hit.id]);
    expect(ids(result.ranked)).toEqual(['a', 'b', 'c', 'd']);
    expect(result.notes[0]).toContain('within 100 ms');
    expect(aborted).toBe(true);
  });

  it('keeps the fused order when the reranker throws anything', async () => {
    const broken: Reranker = { model: 'broken', rerank: () => Promise.reject(new Error('boom')) };
    const { reranking } = stage({}, broken);
    const result = await reranking.rerank('q', fused(), (hit) => TEXTS[hit.id]);
    expect(ids(result.ranked)).toEqual(['a', 'b', 'c', 'd']);
    expect(result.report).toMatchObject({ model: 'broken', applied: false });
  });
});
