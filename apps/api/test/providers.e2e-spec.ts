import { randomBytes } from 'node:crypto';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { createTestHttpApp, type FakeModelServer, TestClient, testConfig, testRedisUrl } from '@cairn/testing';
import { WorkerModule } from '@cairn/worker-app';
import { DataSource } from 'typeorm';
import { type ApiHarness } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';
import { type ModelStack, OLLAMA_MODEL_ID, startModelStack } from './model-stack';

/**
 * The production provider path over real HTTP: the api and the worker configured for Ollama,
 * talking to the in-test model server. A memory stored through REST is embedded by the
 * worker with the Ollama model and then found by semantic search with that model.
 */
describe('Ollama provider end to end', () => {
  const modelId = OLLAMA_MODEL_ID;
  let stack: ModelStack;
  let server: FakeModelServer;
  let api: ApiHarness;
  let w: MemoryWorld;
  let env: Record<string, string>;

  beforeAll(async () => {
    stack = await startModelStack();
    ({ server, api, env } = stack);
    w = await memoryWorld(api);
  });
  afterAll(() => stack?.close());

  async function waitUntilEmbedded(id: string): Promise<{ model: string; dims: number }> {
    const dataSource = api.app.get(DataSource);
    for (let attempt = 0; attempt < 200; attempt += 1) {
      const [row] = await dataSource.query<{ model: string; dims: number }[]>(
        `SELECT embedding_model AS model, vector_dims(embedding) AS dims FROM "${w.tenant.schema}".memories
         WHERE id = $1 AND embedded_hash = content_hash AND embedding IS NOT NULL`,
        [id],
      );
      if (row) return row;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the memory was not embedded by the worker within 10 s');
  }

  it('embeds a stored memory with the Ollama model, and semantic recall finds it with that model', async () => {
    const content = 'The ingestion service batches Kafka offsets before committing them to Postgres';
    const { memory } = await store(w.agent, w.project, { content });

    expect(await waitUntilEmbedded(memory.id)).toEqual({ model: modelId, dims: 64 });
    const embedCall = server.requests.find(
      (request) => request.path === '/api/embed' && request.body.input.includes(content),
    );
    expect(embedCall?.body).toMatchObject({ model: 'nomic-embed-text', keep_alive: '5m', truncate: true });

    const found = await w.agent.post(memoriesUrl(w.project, '/search'), {
      query: 'how are kafka offsets committed?',
      mode: 'semantic',
    });
    expect(found.status).toBe(200);
    expect(found.body.results.map((hit: { memory: { id: string } }) => hit.memory.id)).toContain(memory.id);
    expect(found.body.report).toMatchObject({ mode: 'semantic', embeddingModel: modelId });
    // The query itself was embedded by the api through the same provider.
    expect(
      server.requests.some((request) => request.path === '/api/embed' && request.body.input[0]?.includes('kafka')),
    ).toBe(true);
  });

  it('reports the provider as ready on the api, and counts embedding requests', async () => {
    const ready = await api.client.get('/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body.checks['embedding-provider']).toMatchObject({
      ok: true,
      info: { provider: 'ollama', model: 'nomic-embed-text', url: server.url },
    });
    const metrics = await api.client.get('/metrics');
    expect(metrics.body).toMatch(
      new RegExp(`cairn_embedding_requests_total\\{provider="ollama",model="${modelId}",outcome="ok"\\} [1-9]`),
    );
  });

  it('reports a worker whose model is not pulled as not ready, with the command that fixes it', async () => {
    const config = testConfig(
      api.database.url,
      testRedisUrl(),
      { ...env, EMBEDDING_MODEL: 'mxbai-embed-large', QUEUE_PREFIX: `idle${randomBytes(4).toString('hex')}` },
      'worker',
    );
    let app: NestFastifyApplication | undefined;
    try {
      app = await createTestHttpApp(WorkerModule.register(config), config);
      const ready = await new TestClient(app).get('/readyz');
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe('not_ready');
      expect(ready.body.checks['embedding-provider']).toMatchObject({
        ok: false,
        detail: 'model mxbai-embed-large is not pulled: run `ollama pull mxbai-embed-large`',
      });
      expect(ready.body.checks.database).toMatchObject({ ok: true });
    } finally {
      await app?.close();
    }
  });
});
