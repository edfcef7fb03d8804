import { type TestingModule } from '@nestjs/testing';
import { localModelEnv, startWorkerContext, testConfig, testRedisUrl } from '@cairn/testing';
import { WorkerModule } from '@cairn/worker-app';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

/**
 * Search with the model `npm start` runs by default: the worker embeds with the local
 * all-MiniLM-L6-v2, the api embeds questions with it, and the semantic ranker alone finds the
 * memory that answers a paraphrased question (most share no word with their answer).
 */
describe('search with the local embedding model', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let worker: TestingModule;
  const search = (body: Record<string, unknown>) => w.agent.post(memoriesUrl(w.project, '/search'), body);
  const contents = (response: { body: { results: { memory: { content: string } }[] } }) =>
    response.body.results.map((hit) => hit.memory.content);

  const FACTS = [
    'The API uses Fastify, not Express',
    'Invoices are generated nightly by the billing worker',
    'Alice prefers tabs over spaces in Go files',
    'Production runs on three Kubernetes nodes in Frankfurt',
    'Never log session tokens or passwords',
  ];

  beforeAll(async () => {
    api = await startApi(localModelEnv());
    w = await memoryWorld(api);
    const config = testConfig(
      api.database.url,
      testRedisUrl(),
      { QUEUE_PREFIX: api.config.queues.prefix, ...localModelEnv() },
      'worker',
    );
    worker = await startWorkerContext(WorkerModule.register(config));
    const ids: string[] = [];
    for (const content of FACTS) ids.push((await store(w.agent, w.project, { content })).memory.id);
    const dataSource = api.app.get(DataSource);
    for (let attempt = 0; ; attempt += 1) {
      const [row] = await dataSource.query<{ n: string }[]>(
        `SELECT count(*) AS n FROM "${w.tenant.schema}".memories WHERE id = ANY($1::uuid[]) AND embedding_model = $2`,
        [ids, 'local-all-minilm-l6-v2-384'],
      );
      if (Number(row?.n) === ids.length) break;
      if (attempt > 400) throw new Error('the worker did not embed the memories with the local model within 20 s');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it.each([
    ['which HTTP server library does the backend use?', 'The API uses Fastify, not Express'],
    ['when are customers billed?', 'Invoices are generated nightly by the billing worker'],
    ['what indentation style does she like?', 'Alice prefers tabs over spaces in Go files'],
    ['where is the cluster hosted?', 'Production runs on three Kubernetes nodes in Frankfurt'],
    ['may I print credentials to the logs?', 'Never log session tokens or passwords'],
  ])('semantic ranking alone: "%s" finds "%s" first, by meaning', async (query, expected) => {
    const found = await search({ query, mode: 'semantic' });
    expect(found.status).toBe(200);
    expect(found.body.report).toMatchObject({ mode: 'semantic', embeddingModel: 'local-all-minilm-l6-v2-384' });
    expect(found.body.report.notes.join(' ')).not.toContain('hash embedder');
    expect(contents(found)[0]).toBe(expected);
  });

  it('hybrid ranks the answer first where keywords alone find nothing', async () => {
    const found = await search({ query: 'which HTTP server library does the backend use?' });
    expect(found.body.report).toMatchObject({ mode: 'hybrid', embeddingModel: 'local-all-minilm-l6-v2-384' });
    expect(contents(found)[0]).toBe('The API uses Fastify, not Express');
  });

  it('names the local model in readiness', async () => {
    const ready = await api.client.get('/readyz');
    expect(ready.body.checks.embedder).toEqual({
      ok: true,
      info: { provider: 'local', model: 'local-all-minilm-l6-v2-384', dimensions: 384 },
    });
  });
});
