import { type FakeModelServer, startFakeModelServer } from '@cairn/testing';
import { ProviderError } from './provider-error';
import { RerankClient } from './rerank.client';

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected a ProviderError');
}

describe('RerankClient over real HTTP', () => {
  const key = 'rk-test-0123456789abcdef';
  const model = 'bge-reranker-v2-m3';
  let server: FakeModelServer;

  beforeEach(async () => {
    server = await startFakeModelServer({ models: [model] });
  });
  afterEach(() => server.close());

  const client = (apiKey?: string, timeoutMs = 2_000) => new RerankClient({ baseUrl: server.url, apiKey, timeoutMs });
  const tei = (apiKey?: string, timeoutMs = 2_000) =>
    new RerankClient({ baseUrl: server.url, api: 'tei', apiKey, timeoutMs });

  it("speaks TEI's dialect: {query, texts, truncate} to /rerank, [{index, score}] back, no model named", async () => {
    const documents = ['pandas eat bamboo', 'the giant panda is a bear', 'hello'];
    const results = await tei().rerank(model, 'giant panda bear', documents);
    expect(server.requests[0]).toMatchObject({ method: 'POST', path: '/rerank' });
    expect(server.requests[0]?.body).toEqual({ query: 'giant panda bear', texts: documents, truncate: true });
    expect(results).toEqual([
      { index: 1, score: 1 },
      { index: 0, score: 0 },
      { index: 2, score: 0 },
    ]);
    server.options.apiKey = key;
    await expect(tei(key).rerank(model, 'q', ['a'])).resolves.toHaveLength(1);
    expect(server.requests[1]?.headers.authorization).toBe(`Bearer ${key}`);
  });

  it("classifies TEI's refusals and an answer in the other dialect's shape", async () => {
    server.options.rerankMaxBatch = 2;
    const tooMany = await providerError(tei().rerank(model, 'q', ['a', 'b', 'c']));
    expect(tooMany).toMatchObject({ kind: 'bad_request', status: 413 });
    expect(tooMany.message).toContain('Reranker (TEI) POST /rerank');
    server.fail({ type: 'rerank-results', path: '/rerank', results: [{ index: 0, relevance_score: 1 }] });
    expect(await providerError(tei().rerank(model, 'q', ['a']))).toMatchObject({ kind: 'bad_response' });
  });

  it('posts {model, query, documents, top_n} to /v1/rerank and returns each index with its score', async () => {
    const documents = ['pandas eat bamboo', 'the giant panda is a bear', 'hello'];
    const results = await client().rerank(model, 'giant panda bear', documents);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/rerank',
      body: { model, query: 'giant panda bear', documents, top_n: 3 },
    });
    expect(server.requests[0]?.headers).not.toHaveProperty('authorization');
    // Best first, as the server answered; the extra fields it sends (document, usage) are not read.
    expect(results).toEqual([
      { index: 1, score: 1 },
      { index: 0, score: 0 },
      { index: 2, score: 0 },
    ]);
  });

  it('sends the key as a bearer token, and never names it in errors', async () => {
    server.options.apiKey = key;
    await expect(client(key).rerank(model, 'q', ['a'])).resolves.toHaveLength(1);
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);
    const refused = await providerError(client('rk-wrong-key').rerank(model, 'q', ['a']));
    expect(refused).toMatchObject({ kind: 'bad_request', status: 401 });
    expect(refused.message).not.toContain('rk-wrong-key');
  });

  it('returns the indexes the server sent, even wrong ones: the caller knows what they stand for', async () => {
    server.fail({
      type: 'rerank-results',
      path: '/v1/rerank',
      results: [
        { index: 7, relevance_score: 0.9 },
        { index: 0, relevance_score: 0.5 },
        { index: 0, relevance_score: 0.4 },
      ],
    });
    await expect(client().rerank(model, 'q', ['a', 'b'])).resolves.toEqual([
      { index: 7, score: 0.9 },
      { index: 0, score: 0.5 },
      { index: 0, score: 0.4 },
    ]);
  });

  it('classifies a stalled server, a 5xx, a body that is not JSON and an unexpected shape', async () => {
    server.fail({ type: 'hang', path: '/v1/rerank' });
    const started = Date.now();
    expect(await providerError(client(undefined, 150).rerank(model, 'q', ['a']))).toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2_000);

    server.fail({ type: 'status', status: 503, path: '/v1/rerank' });
    expect(await providerError(client().rerank(model, 'q', ['a']))).toMatchObject({ kind: 'unavailable', status: 503 });
    server.fail({ type: 'status', status: 500, path: '/v1/rerank' });
    expect(await providerError(client().rerank(model, 'q', ['a']))).toMatchObject({ kind: 'unavailable', status: 500 });

    server.fail({ type: 'malformed', path: '/v1/rerank' });
    const malformed = await providerError(client().rerank(model, 'q', ['a']));
    expect(malformed).toMatchObject({ kind: 'bad_response' });
    expect(malformed.message).toContain('not JSON');

    server.fail({ type: 'rerank-results', path: '/v1/rerank', results: [{ index: 0, score: 0.3 }] });
    const shape = await providerError(client().rerank(model, 'q', ['a']));
    expect(shape).toMatchObject({ kind: 'bad_response' });
    expect(shape.message).toContain('relevance_score');
  });

  it('cancels when the caller aborts, and names an unknown model in a 404', async () => {
    server.fail({ type: 'hang', path: '/v1/rerank' });
    const controller = new AbortController();
    const pending = providerError(client(undefined, 5_000).rerank(model, 'q', ['a'], controller.signal));
    setTimeout(() => controller.abort(), 50);
    expect((await pending).message).toContain('cancelled');

    const missing = await providerError(client().rerank('no-such-reranker', 'q', ['a']));
    expect(missing).toMatchObject({ kind: 'not_found', status: 404 });
    expect(missing.message).toContain('no-such-reranker');
  });

  it('names the server without credentials', () => {
    const withCredentials = new RerankClient({ baseUrl: 'http://user:pw@reranker:8080', timeoutMs: 1_000 });
    expect(withCredentials.where).toBe('http://reranker:8080');
  });
});
