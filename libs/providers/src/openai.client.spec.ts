import { type FakeModelServer, fakeEmbedding, startFakeModelServer } from '@cairn/testing';
import { OpenAiClient } from './openai.client';
import { ProviderError } from './provider-error';

async function providerError(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ProviderError) return error;
    throw error;
  }
  throw new Error('expected a ProviderError');
}

describe('OpenAiClient over real HTTP', () => {
  const key = 'sk-test-0123456789abcdef';
  let server: FakeModelServer;

  beforeEach(async () => {
    server = await startFakeModelServer({ dimensions: 4, models: ['BAAI/bge-small-en-v1.5', 'qwen2.5-7b-instruct'] });
  });
  afterEach(() => server.close());

  const client = (apiKey?: string, timeoutMs = 2_000) =>
    new OpenAiClient({ baseUrl: `${server.url}/v1`, apiKey, timeoutMs });

  it('embeds through /embeddings and sends the bearer key only when configured', async () => {
    const vectors = await client(key).embed('BAAI/bge-small-en-v1.5', ['one', 'two']);
    expect(vectors).toEqual([fakeEmbedding('one', 4), fakeEmbedding('two', 4)]);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/v1/embeddings',
      body: { model: 'BAAI/bge-small-en-v1.5', input: ['one', 'two'] },
    });
    expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${key}`);

    await client().embed('BAAI/bge-small-en-v1.5', ['three']);
    expect(server.requests[1]?.headers).not.toHaveProperty('authorization');
  });

  it('orders vectors by index, not by their position in the answer', async () => {
    server.fail({ type: 'reverse-order', path: '/v1/embeddings' });
    const texts = ['first text', 'second text', 'third text'];
    const vectors = await client().embed('BAAI/bge-small-en-v1.5', texts);
    expect(vectors).toEqual(texts.map((text) => fakeEmbedding(text, 4)));
  });

  it('maps a wrong key to bad_request and an unknown model to not_found', async () => {
    server.options.apiKey = key;
    expect(await providerError(client('sk-wrong').embed('BAAI/bge-small-en-v1.5', ['x']))).toMatchObject({
      kind: 'bad_request',
      status: 401,
    });
    const error = await providerError(client(key).embed('text-embedding-3-small', ['x']));
    expect(error).toMatchObject({ kind: 'not_found', status: 404 });
    expect(error.message).not.toContain(key);
  });

  it('completes chats with max_tokens and response_format for JSON', async () => {
    server.options.chatAnswer = (request) => JSON.stringify({ json: request.json, max: request.maxTokens });
    const answer = await client().chat({
      model: 'qwen2.5-7b-instruct',
      messages: [
        { role: 'system', content: 'Extract facts.' },
        { role: 'user', content: 'data' },
      ],
      maxTokens: 300,
      json: true,
    });
    expect(JSON.parse(answer)).toEqual({ json: true, max: 300 });
    expect(server.requests[0]).toMatchObject({
      path: '/v1/chat/completions',
      body: { model: 'qwen2.5-7b-instruct', max_tokens: 300, response_format: { type: 'json_object' } },
    });
    await client().chat({ model: 'qwen2.5-7b-instruct', messages: [], maxTokens: 1 });
    expect(server.requests[1]?.body).not.toHaveProperty('response_format');
  });

  it('lists models for the presence check', async () => {
    await expect(client().hasModel('BAAI/bge-small-en-v1.5')).resolves.toBe(true);
    await expect(client().hasModel('bge-small-en-v1.5')).resolves.toBe(false);
    expect(server.requests[0]).toMatchObject({ method: 'GET', path: '/v1/models' });
  });

  it('classifies throttling, outages, timeouts and malformed answers', async () => {
    server.fail({ type: 'status', status: 429, retryAfter: '3' });
    expect(await providerError(client().embed('BAAI/bge-small-en-v1.5', ['x']))).toMatchObject({
      kind: 'rate_limited',
      backpressureMs: 3_000,
    });
    server.fail({ type: 'status', status: 503 });
    expect(await providerError(client().embed('BAAI/bge-small-en-v1.5', ['x']))).toMatchObject({
      kind: 'unavailable',
      backpressureMs: 5_000,
    });
    server.fail({ type: 'reset' });
    expect((await providerError(client().embed('BAAI/bge-small-en-v1.5', ['x']))).kind).toBe('unavailable');
    server.fail({ type: 'hang' });
    expect((await providerError(client(undefined, 150).embed('BAAI/bge-small-en-v1.5', ['x']))).kind).toBe('timeout');
    server.fail({ type: 'nan', path: '/v1/embeddings' });
    expect((await providerError(client().embed('BAAI/bge-small-en-v1.5', ['x']))).kind).toBe('bad_response');
    server.fail({ type: 'malformed' });
    expect(
      (await providerError(client().chat({ model: 'qwen2.5-7b-instruct', messages: [], maxTokens: 1 }))).kind,
    ).toBe('bad_response');
  });
});
