import { type FakeModelServer, fakeEmbedding, startFakeModelServer } from '@cairn/testing';
import { OllamaClient } from './ollama.client';
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

describe('OllamaClient over real HTTP', () => {
  let server: FakeModelServer;
  let client: OllamaClient;

  beforeEach(async () => {
    server = await startFakeModelServer({ dimensions: 8, models: ['nomic-embed-text:latest', 'llama3.2:3b'] });
    client = new OllamaClient({ url: server.url, keepAlive: '10m', timeoutMs: 2_000 });
  });
  afterEach(() => server.close());

  it('embeds a batch with the model, keep_alive and truncation, in input order', async () => {
    const vectors = await client.embed('nomic-embed-text', ['alpha beta', 'gamma']);
    expect(vectors).toEqual([fakeEmbedding('alpha beta', 8), fakeEmbedding('gamma', 8)]);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      method: 'POST',
      path: '/api/embed',
      body: { model: 'nomic-embed-text', input: ['alpha beta', 'gamma'], keep_alive: '10m', truncate: true },
    });
    expect(server.requests[0]?.headers['content-type']).toBe('application/json');
  });

  it('sends a keep_alive given in plain seconds (or -1) as a number, as Ollama requires', async () => {
    for (const [setting, sent] of [
      ['300', 300],
      ['-1', -1],
      ['1h', '1h'],
    ] as const) {
      await new OllamaClient({ url: server.url, keepAlive: setting, timeoutMs: 2_000 }).embed('nomic-embed-text', [
        'x',
      ]);
      expect(server.requests.at(-1)?.body.keep_alive).toBe(sent);
    }
  });

  it('chats without streaming, with system and user messages, JSON format and a length bound', async () => {
    server.options.chatAnswer = (request) => `${request.messages.length} messages, json=${request.json}`;
    const answer = await client.chat({
      model: 'llama3.2:3b',
      messages: [
        { role: 'system', content: 'Summarise.' },
        { role: 'user', content: 'Some text' },
      ],
      maxTokens: 120,
      json: true,
    });
    expect(answer).toBe('2 messages, json=true');
    expect(server.requests[0]).toMatchObject({
      path: '/api/chat',
      body: { model: 'llama3.2:3b', stream: false, format: 'json', keep_alive: '10m', options: { num_predict: 120 } },
    });
    await client.chat({ model: 'llama3.2:3b', messages: [{ role: 'user', content: 'x' }], maxTokens: 5 });
    expect(server.requests[1]?.body).not.toHaveProperty('format');
  });

  it('finds models by name, an untagged name meaning :latest', async () => {
    await expect(client.hasModel('nomic-embed-text')).resolves.toBe(true);
    await expect(client.hasModel('nomic-embed-text:latest')).resolves.toBe(true);
    await expect(client.hasModel('llama3.2:3b')).resolves.toBe(true);
    await expect(client.hasModel('llama3.2')).resolves.toBe(false);
    await expect(client.hasModel('nomic-embed-text:v1.5')).resolves.toBe(false);
    expect(server.requests.every((request) => request.method === 'GET' && request.path === '/api/tags')).toBe(true);
  });

  it('maps a model that is not pulled to not_found', async () => {
    const error = await providerError(client.embed('mxbai-embed-large', ['x']));
    expect(error).toMatchObject({ kind: 'not_found', status: 404 });
    expect(error.message).toContain('mxbai-embed-large');
  });

  it('maps 429 to rate_limited with the pause Retry-After asks for (seconds, date, default, cap)', async () => {
    server.fail({ type: 'status', status: 429, retryAfter: '2' });
    expect(await providerError(client.embed('nomic-embed-text', ['x']))).toMatchObject({
      kind: 'rate_limited',
      status: 429,
      backpressureMs: 2_000,
    });
    server.fail({ type: 'status', status: 429, retryAfter: new Date(Date.now() + 10_000).toUTCString() });
    const dated = await providerError(client.embed('nomic-embed-text', ['x']));
    expect(dated.backpressureMs).toBeGreaterThan(8_000);
    expect(dated.backpressureMs).toBeLessThanOrEqual(10_000);
    server.fail({ type: 'status', status: 429 });
    expect((await providerError(client.embed('nomic-embed-text', ['x']))).backpressureMs).toBe(5_000);
    server.fail({ type: 'status', status: 429, retryAfter: '86400' });
    expect((await providerError(client.embed('nomic-embed-text', ['x']))).backpressureMs).toBe(60_000);
  });

  it('maps 502/503/504 to unavailable with backpressure, other 5xx without, other 4xx to bad_request', async () => {
    for (const status of [502, 503, 504]) {
      server.fail({ type: 'status', status });
      expect(await providerError(client.embed('nomic-embed-text', ['x']))).toMatchObject({
        kind: 'unavailable',
        status,
        backpressureMs: 5_000,
      });
    }
    server.fail({ type: 'status', status: 503, retryAfter: '7' });
    expect((await providerError(client.embed('nomic-embed-text', ['x']))).backpressureMs).toBe(7_000);
    server.fail({ type: 'status', status: 500 });
    const internal = await providerError(client.embed('nomic-embed-text', ['x']));
    expect(internal).toMatchObject({ kind: 'unavailable', status: 500 });
    expect(internal.backpressureMs).toBeUndefined();
    server.fail({ type: 'status', status: 400 });
    expect(await providerError(client.chat({ model: 'llama3.2:3b', messages: [], maxTokens: 1 }))).toMatchObject({
      kind: 'bad_request',
      status: 400,
    });
  });

  it('maps a reset connection and a closed port to unavailable with backpressure', async () => {
    server.fail({ type: 'reset' });
    expect(await providerError(client.embed('nomic-embed-text', ['x']))).toMatchObject({
      kind: 'unavailable',
      backpressureMs: 5_000,
    });
    const gone = await startFakeModelServer();
    await gone.close();
    const refused = await providerError(
      new OllamaClient({ url: gone.url, keepAlive: '5m', timeoutMs: 2_000 }).embed('nomic-embed-text', ['x']),
    );
    expect(refused).toMatchObject({ kind: 'unavailable', backpressureMs: 5_000 });
    expect(refused.message).toBe(`Ollama at ${gone.url} is unreachable (ECONNREFUSED)`);
  });

  it('times out a server that never answers, and honours the caller signal', async () => {
    const impatient = new OllamaClient({ url: server.url, keepAlive: '5m', timeoutMs: 200 });
    server.fail({ type: 'hang' });
    const started = Date.now();
    const error = await providerError(impatient.embed('nomic-embed-text', ['x']));
    expect(error).toMatchObject({ kind: 'timeout', message: expect.stringContaining('200 ms') });
    expect(Date.now() - started).toBeLessThan(1_500);
    server.fail({ type: 'hang' });
    const cancelled = await providerError(client.embed('nomic-embed-text', ['x'], AbortSignal.timeout(100)));
    expect(cancelled.kind).toBe('timeout');
  });

  it('rejects answers that are not JSON or not the expected shape as bad_response', async () => {
    server.fail({ type: 'malformed' });
    expect((await providerError(client.embed('nomic-embed-text', ['x']))).kind).toBe('bad_response');
    server.fail({ type: 'nan', path: '/api/embed' });
    expect((await providerError(client.embed('nomic-embed-text', ['x']))).kind).toBe('bad_response');
    // A 200 carrying an error object instead of embeddings.
    server.fail({ type: 'status', status: 200 });
    const shape = await providerError(client.embed('nomic-embed-text', ['x']));
    expect(shape).toMatchObject({ kind: 'bad_response', message: expect.stringContaining('embeddings') });
  });

  it('never puts request content in error messages', async () => {
    server.fail({ type: 'status', status: 400 });
    const error = await providerError(client.embed('nomic-embed-text', ['the secret launch plan']));
    expect(error.message).not.toContain('secret');
  });
});
