import { OllamaClient, OpenAiClient, ProviderError } from '@cairn/providers';
import { type FakeModelServer, fakeEmbedding, startFakeModelServer } from '@cairn/testing';
import { assertSafeModelId } from './embedding-model';
import { OllamaEmbedder, OpenAiEmbedder, providerModelId } from './provider-embedders';

const norm = (vector: ArrayLike<number>) =>
  Math.sqrt(Array.from(vector).reduce((sum, value) => sum + value * value, 0));
const unit = (vector: number[]) => vector.map((value) => value / norm(vector));
const texts = Array.from({ length: 70 }, (_, i) => `memory number ${i} about topic ${i % 7}`);

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected a ProviderError');
}

describe('providerModelId', () => {
  it('is provider, sanitised lower-case name and dimensions', () => {
    expect(providerModelId('ollama', 'nomic-embed-text', 768)).toBe('ollama-nomic-embed-text-768');
    expect(providerModelId('ollama', 'nomic-embed-text:v1.5', 768)).toBe('ollama-nomic-embed-text-v1.5-768');
    expect(providerModelId('openai', 'BAAI/bge-small-en-v1.5', 384)).toBe('openai-baai-bge-small-en-v1.5-384');
    expect(providerModelId('openai', 'org/Model@rev+1', 8)).toBe('openai-org-model-rev-1-8');
  });

  it('keeps long names safe and distinct', () => {
    const a = providerModelId('openai', `${'x'.repeat(120)}-a`, 1024);
    const b = providerModelId('openai', `${'x'.repeat(120)}-b`, 1024);
    expect(a).not.toBe(b);
    for (const id of [a, b]) expect(assertSafeModelId(id)).toBe(id);
  });
});

describe.each([
  {
    name: 'OllamaEmbedder',
    path: '/api/embed',
    make: (server: FakeModelServer, dimensions: number) =>
      new OllamaEmbedder(new OllamaClient({ url: server.url, keepAlive: '5m', timeoutMs: 2_000 }), {
        model: 'nomic-embed-text',
        dimensions,
        batchSize: 32,
      }),
  },
  {
    name: 'OpenAiEmbedder',
    path: '/v1/embeddings',
    make: (server: FakeModelServer, dimensions: number) =>
      new OpenAiEmbedder(new OpenAiClient({ baseUrl: `${server.url}/v1`, timeoutMs: 2_000 }), {
        model: 'nomic-embed-text',
        dimensions,
        batchSize: 32,
      }),
  },
])('$name', ({ path, make }) => {
  let server: FakeModelServer;

  beforeEach(async () => {
    server = await startFakeModelServer({ dimensions: 16 });
  });
  afterEach(() => server.close());

  it('describes its model as a non-built-in provider model', () => {
    const { model } = make(server, 16);
    expect(model).toEqual({
      id: `${model.provider}-nomic-embed-text-16`,
      provider: path === '/api/embed' ? 'ollama' : 'openai',
      dimensions: 16,
      builtIn: false,
    });
  });

  it('sends batches of the configured size and returns unit vectors in input order', async () => {
    const vectors = await make(server, 16).embed(texts);
    expect(server.requests.map((request) => request.body.input.length)).toEqual([32, 32, 6]);
    expect(server.requests.flatMap((request) => request.body.input)).toEqual(texts);
    expect(vectors).toHaveLength(70);
    vectors.forEach((vector, i) => {
      expect(vector).toBeInstanceOf(Float32Array);
      expect(norm(vector)).toBeCloseTo(1, 5);
      unit(fakeEmbedding(texts[i] ?? '', 16)).forEach((value, d) => expect(vector[d]).toBeCloseTo(value, 5));
    });
  });

  it('refuses vectors of the wrong dimension, or with non-finite values', async () => {
    server.fail({ type: 'dimensions', dimensions: 8, path });
    const wrong = await providerError(make(server, 16).embed(['a', 'b']));
    expect(wrong).toMatchObject({
      kind: 'bad_response',
      message: expect.stringContaining('8 dimensions, expected 16'),
    });
    server.fail({ type: 'nan', path });
    expect((await providerError(make(server, 16).embed(['a']))).kind).toBe('bad_response');
  });

  it('passes provider errors through and embeds nothing for no texts', async () => {
    server.fail({ type: 'status', status: 429, retryAfter: '4', path });
    expect(await providerError(make(server, 16).embed(['a']))).toMatchObject({
      kind: 'rate_limited',
      backpressureMs: 4_000,
    });
    await expect(make(server, 16).embed([])).resolves.toEqual([]);
    expect(server.requests).toHaveLength(1);
  });
});

describe('OpenAiEmbedder with answers out of order', () => {
  it('puts every vector back at its input position', async () => {
    const server = await startFakeModelServer({ dimensions: 4 });
    try {
      server.fail({ type: 'reverse-order', path: '/v1/embeddings' }, { type: 'reverse-order', path: '/v1/embeddings' });
      const client = new OpenAiClient({ baseUrl: `${server.url}/v1`, timeoutMs: 2_000 });
      const embedder = new OpenAiEmbedder(client, { model: 'nomic-embed-text', dimensions: 4, batchSize: 32 });
      const vectors = await embedder.embed(texts);
      vectors.forEach((vector, i) => {
        unit(fakeEmbedding(texts[i] ?? '', 4)).forEach((value, d) => expect(vector[d]).toBeCloseTo(value, 5));
      });
    } finally {
      await server.close();
    }
  });
});
