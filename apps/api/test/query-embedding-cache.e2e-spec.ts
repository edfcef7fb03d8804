import { type FakeModelServer, startFakeModelServer } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

/**
 * Search queries are embedded by the configured provider (here an Ollama-speaking server).
 * Asking again must not cost another model call, concurrent identical searches share one,
 * and a failed call is not remembered.
 */
describe('query embeddings', () => {
  let server: FakeModelServer;
  let api: ApiHarness;
  let w: MemoryWorld;

  const search = (query: string, mode = 'hybrid') => w.agent.post(memoriesUrl(w.project, '/search'), { query, mode });
  const embedCallsFor = (query: string) =>
    server.requests.filter((request) => request.path === '/api/embed' && request.body.input?.includes(query)).length;

  beforeAll(async () => {
    server = await startFakeModelServer({ dimensions: 64, models: ['nomic-embed-text:latest'] });
    api = await startApi({
      EMBEDDING_PROVIDER: 'ollama',
      EMBEDDING_MODEL: 'nomic-embed-text',
      EMBEDDING_DIMENSIONS: '64',
      OLLAMA_URL: server.url,
    });
    w = await memoryWorld(api);
    await store(w.agent, w.project, { content: 'Invoices are generated nightly by the billing worker' });
  });
  afterAll(async () => {
    await api?.close();
    await server?.close();
  });

  it('embeds a repeated question once', async () => {
    const query = 'when are invoices generated?';
    for (let i = 0; i < 3; i += 1) {
      const found = await search(query);
      expect(found.status).toBe(200);
      expect(found.body.report).toMatchObject({ mode: 'hybrid', embeddingModel: 'ollama-nomic-embed-text-64' });
      expect(found.body.results[0].memory.content).toContain('Invoices are generated nightly');
    }
    expect(embedCallsFor(query)).toBe(1);
    // Another question is another call.
    await search('who generates invoices?', 'semantic');
    expect(embedCallsFor('who generates invoices?')).toBe(1);
  });

  it('shares one provider call between concurrent identical searches', async () => {
    const query = 'which worker produces the invoices?';
    server.options.latencyMs = 500;
    try {
      const answers = await Promise.all(Array.from({ length: 5 }, () => search(query)));
      expect(answers.map((answer) => answer.body.report.mode)).toEqual(Array(5).fill('hybrid'));
    } finally {
      server.options.latencyMs = 0;
    }
    expect(embedCallsFor(query)).toBe(1);
  });

  it('does not remember a failed call: the next search asks the provider again', async () => {
    const query = 'how often do invoices run?';
    server.fail({ type: 'status', status: 400, path: '/api/embed' });
    const degraded = await search(query);
    expect(degraded.status).toBe(200);
    expect(degraded.body.report.mode).toBe('keyword');
    expect(degraded.body.report.notes.join(' ')).toContain('embedding provider is unavailable');
    const calls = embedCallsFor(query);

    const recovered = await search(query);
    expect(recovered.body.report.mode).toBe('hybrid');
    expect(embedCallsFor(query)).toBe(calls + 1);
  });

  it('counts where query vectors came from', async () => {
    const metrics = String((await api.client.get('/metrics')).body);
    for (const outcome of ['hit', 'miss', 'shared']) {
      expect(metrics).toMatch(
        new RegExp(`cairn_query_embedding_lookups_total\\{[^}]*outcome="${outcome}"[^}]*\\} [1-9]`),
      );
    }
  });

  it('embeds the question before taking a database connection, so a slow model blocks no one', async () => {
    // One pooled connection: a search that held it while the model answered would stall every request.
    const single = await startApi({
      EMBEDDING_PROVIDER: 'ollama',
      EMBEDDING_MODEL: 'nomic-embed-text',
      EMBEDDING_DIMENSIONS: '64',
      OLLAMA_URL: server.url,
      DATABASE_POOL_MAX: '1',
    });
    try {
      const world = await memoryWorld(single);
      const query = 'which service renders the monthly statements?';
      server.options.latencyMs = 1_500;
      let searchDone = false;
      const searching = world.agent
        .post(memoriesUrl(world.project, '/search'), { query, mode: 'hybrid' })
        .finally(() => (searchDone = true));
      while (embedCallsFor(query) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      // The model is still thinking; a request that needs the database gets the connection now.
      const listed = await world.agent.get(memoriesUrl(world.project));
      expect(listed.status).toBe(200);
      expect(searchDone).toBe(false);
      expect((await searching).body.report.mode).toBe('hybrid');
    } finally {
      server.options.latencyMs = 0;
      await single.close();
    }
  });

  it('runs a search by keyword, saying why, when the provider stalls past the query budget', async () => {
    const impatient = await startApi({
      EMBEDDING_PROVIDER: 'ollama',
      EMBEDDING_MODEL: 'nomic-embed-text',
      EMBEDDING_DIMENSIONS: '64',
      OLLAMA_URL: server.url,
      QUERY_EMBEDDING_TIMEOUT_MS: '200',
    });
    try {
      const world = await memoryWorld(impatient);
      await store(world.agent, world.project, { content: 'Refunds are approved by the finance lead' });
      server.options.latencyMs = 2_000;
      const found = await world.agent.post(memoriesUrl(world.project, '/search'), { query: 'who approves refunds?' });
      expect(found.status).toBe(200);
      expect(found.body.report.mode).toBe('keyword');
      expect(found.body.report.notes.join(' ')).toContain('did not answer within 200 ms');
      expect(found.body.results[0].memory.content).toContain('Refunds are approved');
    } finally {
      server.options.latencyMs = 0;
      await impatient.close();
    }
  });
});
