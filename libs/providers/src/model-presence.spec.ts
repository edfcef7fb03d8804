import { type FakeModelServer, startFakeModelServer } from '@cairn/testing';
import { ModelPresenceCheck } from './model-presence';
import { OllamaClient } from './ollama.client';
import { OpenAiClient } from './openai.client';

describe('ModelPresenceCheck', () => {
  let server: FakeModelServer;
  let ollama: OllamaClient;

  beforeEach(async () => {
    server = await startFakeModelServer({ models: ['nomic-embed-text:latest'] });
    ollama = new OllamaClient({ url: server.url, keepAlive: '5m', timeoutMs: 30_000 });
  });
  afterEach(() => server.close());

  it('is ready when the server lists the model, and says which one', async () => {
    const result = await new ModelPresenceCheck(ollama, 'nomic-embed-text', { purpose: 'embeddings' }).check();
    expect(result).toEqual({
      ok: true,
      info: { provider: 'ollama', model: 'nomic-embed-text', url: server.url, purpose: 'embeddings' },
    });
  });

  it('tells the operator to pull a missing Ollama model', async () => {
    const result = await new ModelPresenceCheck(ollama, 'mxbai-embed-large', { purpose: 'embeddings' }).check();
    expect(result).toMatchObject({
      ok: false,
      detail: 'model mxbai-embed-large is not pulled: run `ollama pull mxbai-embed-large`',
    });
  });

  it('names the OpenAI-compatible server that does not serve the model', async () => {
    const openai = new OpenAiClient({ baseUrl: `${server.url}/v1`, timeoutMs: 30_000 });
    const result = await new ModelPresenceCheck(openai, 'gpt-4o-mini', { purpose: 'chat' }).check();
    expect(result.ok).toBe(false);
    expect(result.detail).toBe(
      `model gpt-4o-mini is not served by the OpenAI-compatible server at ${server.url}/v1: check the model name`,
    );
  });

  it('reports an unreachable server by address, whether refused or silent', async () => {
    const gone = await startFakeModelServer();
    await gone.close();
    const refused = new OllamaClient({ url: gone.url, keepAlive: '5m', timeoutMs: 30_000 });
    expect(await new ModelPresenceCheck(refused, 'nomic-embed-text', { purpose: 'embeddings' }).check()).toMatchObject({
      ok: false,
      detail: `Ollama at ${gone.url} is unreachable (ECONNREFUSED)`,
    });

    server.fail({ type: 'hang' });
    const silent = new ModelPresenceCheck(ollama, 'nomic-embed-text', { purpose: 'embeddings', timeoutMs: 150 });
    expect(await silent.check()).toMatchObject({
      ok: false,
      detail: `Ollama at ${server.url} is unreachable (no answer within 150 ms)`,
    });

    server.fail({ type: 'status', status: 503 });
    const busy = new ModelPresenceCheck(ollama, 'nomic-embed-text', { purpose: 'embeddings' });
    expect((await busy.check()).detail).toBe(`Ollama at ${server.url} is unreachable (HTTP 503)`);
  });

  it('caches answers (failures for less long) and shares one request between concurrent checks', async () => {
    let now = 0;
    const check = new ModelPresenceCheck(ollama, 'nomic-embed-text', { purpose: 'embeddings', now: () => now });
    await Promise.all([check.check(), check.check(), check.check()]);
    expect(server.requests).toHaveLength(1);
    now = 29_000;
    await check.check();
    expect(server.requests).toHaveLength(1);
    now = 31_000;
    server.options.models = [];
    expect((await check.check()).ok).toBe(false);
    expect(server.requests).toHaveLength(2);
    server.options.models = ['nomic-embed-text:latest'];
    now = 34_000;
    expect((await check.check()).ok).toBe(false);
    now = 37_000;
    expect((await check.check()).ok).toBe(true);
    expect(server.requests).toHaveLength(3);
  });
});
