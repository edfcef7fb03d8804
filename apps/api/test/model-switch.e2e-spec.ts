import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type TestingModule } from '@nestjs/testing';
import { indexName } from '@cairn/embeddings';
import {
  createProject,
  createTenant,
  createTestHttpApp,
  type FakeModelServer,
  issueToken,
  startFakeModelServer,
  startWorkerContext,
  TestClient,
  testConfig,
  testRedisUrl,
} from '@cairn/testing';
import { WorkerModule } from '@cairn/worker-app';
import { DataSource } from 'typeorm';
import { ApiModule } from '../src/api.module';
import { type ApiHarness, startApi } from './api-harness';

const MEMORIES = 150;
const NEW_MODEL = 'ollama-nomic-embed-text-64';

/**
 * A tenant's memories embedded by the built-in model; then the deployment switches to an
 * Ollama model (new worker and api configuration). The worker rolls the model out: builds its
 * index and re-embeds everything in a resumable backfill, while search stays correct: keyword
 * finds everything throughout, vectors cover what has been re-embedded.
 */
describe('switching the embedding model', () => {
  let hashApi: ApiHarness;
  let server: FakeModelServer;
  let hashWorker: TestingModule;
  let newWorker: TestingModule;
  let newApi: NestFastifyApplication;
  let schema: string;
  let project: string;
  let token: string;

  const sql = <T = any>(query: string, params: unknown[] = []) =>
    hashApi.app.get(DataSource).query<T[]>(query.replaceAll('{schema}', `"${schema}"`), params);
  const count = async (model: string) =>
    Number(
      (await sql<{ n: string }>(`SELECT count(*) AS n FROM {schema}.memories WHERE embedding_model = $1`, [model]))[0]
        ?.n,
    );
  async function until(condition: () => Promise<boolean>, what: string): Promise<void> {
    for (let attempt = 0; attempt < 600; attempt += 1) {
      if (await condition()) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  beforeAll(async () => {
    hashApi = await startApi();
    const hashConfig = testConfig(
      hashApi.database.url,
      testRedisUrl(),
      { QUEUE_PREFIX: hashApi.config.queues.prefix },
      'worker',
    );
    hashWorker = await startWorkerContext(WorkerModule.register(hashConfig));
    const tenant = await createTenant(hashApi.admin);
    schema = tenant.schema;
    project = (await createProject(hashApi.admin, tenant.slug)).slug;
    token = (await issueToken(hashApi.admin, tenant.slug, { role: 'agent', agentId: 'switch-test' })).token;
    const agent = hashApi.client.as(token);
    for (let i = 0; i < MEMORIES; i += 1) {
      const topic =
        i === 0
          ? 'The quarterly billing reconciliation runs on the first Monday'
          : `Routine note number ${i} about module ${i % 7}`;
      expect((await agent.post(`/v1/projects/${project}/memories`, { content: topic })).status).toBe(201);
    }
    await until(async () => (await count('cairn-hash-v1')) === MEMORIES, 'the built-in model to embed everything');
    await hashWorker.close();
  });

  afterAll(async () => {
    await newWorker?.close();
    await newApi?.close();
    await server?.close();
    await hashApi.close();
  });

  it('rolls the new model out with its own index and a backfill, keeping search correct meanwhile', async () => {
    // Slow enough that the backfill is visibly under way for a while.
    server = await startFakeModelServer({ dimensions: 64, models: ['nomic-embed-text:latest'], latencyMs: 60 });
    const provider = {
      QUEUE_PREFIX: `${hashApi.config.queues.prefix}n`,
      EMBEDDING_PROVIDER: 'ollama',
      EMBEDDING_MODEL: 'nomic-embed-text',
      EMBEDDING_DIMENSIONS: '64',
      EMBEDDING_BATCH_SIZE: '8',
      OLLAMA_URL: server.url,
    };
    const apiConfig = testConfig(hashApi.database.url, testRedisUrl(), provider);
    newApi = await createTestHttpApp(ApiModule.register(apiConfig), apiConfig);
    newWorker = await startWorkerContext(
      WorkerModule.register(testConfig(hashApi.database.url, testRedisUrl(), provider, 'worker')),
    );
    const agent = new TestClient(newApi, token);
    const search = (query: string, mode: string) =>
      agent.post(`/v1/projects/${project}/memories/search`, { query, mode, limit: 5 });

    await until(async () => (await count(NEW_MODEL)) > 0, 'the backfill to start');
    // Vectors are stored 64 rows at a time, each batch taking several slow provider calls.
    expect(await count(NEW_MODEL)).toBeLessThan(MEMORIES);
    {
      const semantic = await search('billing reconciliation monday', 'semantic');
      expect(semantic.status).toBe(200);
      expect(semantic.body.report.notes.join(' ')).toContain('re-embedding');
      // Keyword search finds everything throughout.
      const keyword = await search('quarterly billing reconciliation', 'keyword');
      expect(keyword.body.results[0].memory.content).toContain('quarterly billing reconciliation');
      const hybrid = await search('quarterly billing reconciliation', 'hybrid');
      expect(hybrid.body.results[0].memory.content).toContain('quarterly billing reconciliation');
    }

    await until(async () => (await count(NEW_MODEL)) === MEMORIES, 'the backfill to re-embed every memory');
    await until(
      async () =>
        (
          await sql<{ status: string }>(`SELECT status FROM {schema}.embedding_backfills WHERE model = $1`, [NEW_MODEL])
        )[0]?.status === 'done',
      'the backfill to be marked done',
    );
    const indexes = await sql<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE schemaname = $1`, [
      schema,
    ]);
    expect(indexes.map((row) => row.indexname)).toEqual(
      expect.arrayContaining([indexName('memories', NEW_MODEL), indexName('kb_chunks', NEW_MODEL)]),
    );
    const semantic = await search('billing reconciliation first monday', 'semantic');
    expect(semantic.body.report.embeddingModel).toBe(NEW_MODEL);
    expect(semantic.body.results[0].memory.content).toContain('quarterly billing reconciliation');
    // Each batch went to the provider in the configured batch size.
    const batches = server.requests.filter((request) => request.path === '/api/embed').map((r) => r.body.input.length);
    expect(Math.max(...batches)).toBeLessThanOrEqual(8);
  });
});
