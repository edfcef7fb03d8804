import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

interface Recall {
  results: { memory: { content: string }; relevance?: number; explain?: { relevance?: Record<string, unknown> } }[];
  report: { relevance?: { threshold: number | null; source: string; calibration: string; dropped: number } };
}

/**
 * Recall's calibrated relevance over REST (the built-in hash embedder: relevance is the share of
 * the query's IDF-weighted terms a memory holds, threshold 0.33). An unrelated question gets
 * nothing with the default threshold, where the plain top results would be every memory.
 */
describe('recall with a relevance threshold', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  const search = (body: Record<string, unknown>) => w.agent.post(memoriesUrl(w.project, '/search'), body);

  beforeAll(async () => {
    // Stored memories stay without vectors (no worker, no inline embedding): relevance by coverage.
    api = await startApi({ EMBEDDING_PROVIDER: 'hash', EMBEDDING_INLINE: 'false' });
    w = await memoryWorld(api);
    for (const content of [
      'Run the database migrations with npm run db:migrate',
      'Priya Raman reviews every change to the Stripe webhook handler',
      'Invoices are generated nightly at 02:00 UTC by the invoice worker',
      'Deploy to staging with make deploy-staging',
      'Every money amount is stored in integer cents',
      'The footer links come from config/footer.ts',
    ]) {
      await store(w.agent, w.project, { content });
    }
  });
  afterAll(() => api?.close());

  it('gives every result a relevance and says no threshold applied when none was asked for', async () => {
    const found = await search({ query: 'write a haiku about autumn leaves and the footer', explain: true });
    expect(found.status).toBe(200);
    const body = found.body as Recall;
    expect(body.results.length).toBeGreaterThan(0);
    for (const hit of body.results) {
      expect(hit.relevance).toBeGreaterThanOrEqual(0);
      expect(hit.relevance).toBeLessThanOrEqual(1);
      // No worker runs here, so no memory has a vector yet: relevance is term coverage alone.
      expect(hit.explain?.relevance).toEqual({ coverage: hit.relevance, cosine: null });
    }
    expect(body.report.relevance).toEqual({
      threshold: null,
      source: 'none',
      calibration: 'cairn-hash-v1',
      dropped: 0,
    });
  });

  it('returns nothing for an unrelated question with the default threshold, and says what it left out', async () => {
    const plain = (await search({ query: "what's the capital of Australia?" })).body as Recall;
    const thresholded = await search({ query: "what's the capital of Australia?", minRelevance: 'default' });
    expect(thresholded.status).toBe(200);
    const body = thresholded.body as Recall;
    expect(body.results).toEqual([]);
    expect(body.report.relevance).toEqual({
      threshold: 0.33,
      source: 'default',
      calibration: 'cairn-hash-v1',
      dropped: plain.results.length,
    });
  });

  it('keeps the memory a related question is about, above the threshold', async () => {
    const found = await search({ query: 'how do I run the migrations?', minRelevance: 'default' });
    const body = found.body as Recall;
    expect(body.results[0]?.memory.content).toBe('Run the database migrations with npm run db:migrate');
    for (const hit of body.results) expect(hit.relevance).toBeGreaterThanOrEqual(0.33);
  });

  it('takes a number as the threshold', async () => {
    const strict = (await search({ query: 'who reviews the stripe webhook changes?', minRelevance: 0.99 }))
      .body as Recall;
    for (const hit of strict.results) expect(hit.relevance).toBeGreaterThanOrEqual(0.99);
    expect(strict.report.relevance).toMatchObject({ threshold: 0.99, source: 'request' });
    const lax = (await search({ query: 'who reviews the stripe webhook changes?', minRelevance: 0 })).body as Recall;
    expect(lax.report.relevance).toMatchObject({ threshold: 0, source: 'request', dropped: 0 });
  });

  it.each([[1.5], [-0.1], ['high'], [null], [true]])('rejects minRelevance %p with a clear 400', async (value) => {
    const found = await search({ query: 'migrations', minRelevance: value });
    expect(found.status).toBe(400);
    expect(JSON.stringify(found.body)).toContain('minRelevance');
  });

  it('judges no relevance for a question of dates alone, and leaves nothing out for it', async () => {
    const found = await search({ query: 'yesterday', minRelevance: 'default' });
    expect(found.status).toBe(200);
    const body = found.body as Recall;
    expect(body.report.relevance).toBeUndefined();
    for (const hit of body.results) expect(hit.relevance).toBeUndefined();
  });

  it('applies the threshold to cross-project recall too', async () => {
    const found = await w.wideAgent.post('/v1/memories/search', {
      query: "what's the capital of Australia?",
      minRelevance: 'default',
    });
    expect(found.status).toBe(200);
    expect((found.body as Recall).results).toEqual([]);
    expect((found.body as Recall).report.relevance?.source).toBe('default');
  });
});
