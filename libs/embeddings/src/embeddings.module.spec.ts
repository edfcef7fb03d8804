import { Test, type TestingModule } from '@nestjs/testing';
import { ConfigModule } from '@cairn/config';
import { MetricsService, ObservabilityModule, ReadinessRegistry } from '@cairn/observability';
import { type FakeModelServer, startFakeModelServer, testConfig } from '@cairn/testing';
import { EMBEDDER, type Embedder } from './embedding-model';
import { EmbeddingsModule } from './embeddings.module';
import { HASH_MODEL, HashEmbedder } from './hash-embedder';
import { EmbeddingMetrics } from './embedding-metrics.service';
import { MeasuredEmbedder } from './measured-embedder';

/** Worker configuration; nothing here touches the database or Redis. */
const config = (env: Record<string, string>) =>
  testConfig('postgresql://unused/unused', 'redis://unused:6379', env, 'worker');

/** One metric's samples as `name label=value… → value` (labels sorted), read back from the registry. */
async function samples(metrics: MetricsService, name: string): Promise<Record<string, number>> {
  const metric = metrics.registry.getSingleMetric(name);
  const { values } = (await metric?.get()) ?? { values: [] };
  return Object.fromEntries(
    values.map((sample) => [
      [
        (sample as { metricName?: string }).metricName ?? name,
        ...Object.entries(sample.labels)
          .sort(([a], [b]) => a.localeCompare(b))
          .map(([key, value]) => `${key}=${value}`),
      ].join(' '),
      sample.value,
    ]),
  );
}

let current: TestingModule | undefined;
/** The embeddings module as an app imports it, closed after each test. */
async function boot(env: Record<string, string>): Promise<TestingModule> {
  current = await Test.createTestingModule({
    imports: [ConfigModule.forRoot(config(env)), ObservabilityModule, EmbeddingsModule],
  }).compile();
  await current.init();
  return current;
}
afterEach(async () => {
  await current?.close();
  current = undefined;
});

describe('embedding metrics', () => {
  let server: FakeModelServer;
  beforeEach(async () => {
    server = await startFakeModelServer({ dimensions: 8 });
  });
  afterEach(() => server.close());

  it('counts one request per provider call, by outcome, with batch sizes and latencies', async () => {
    const moduleRef = await boot({
      EMBEDDING_PROVIDER: 'ollama',
      EMBEDDING_MODEL: 'nomic-embed-text',
      EMBEDDING_DIMENSIONS: '8',
      EMBEDDING_BATCH_SIZE: '32',
      OLLAMA_URL: server.url,
    });
    const embedder = moduleRef.get<Embedder>(EMBEDDER);
    const registry = moduleRef.get(MetricsService);
    await embedder.embed(Array.from({ length: 70 }, (_, i) => `text ${i}`));
    server.fail({ type: 'status', status: 429, path: '/api/embed' });
    await expect(embedder.embed(['x'])).rejects.toMatchObject({ kind: 'rate_limited' });

    const model = 'model=ollama-nomic-embed-text-8';
    expect(await samples(registry, 'cairn_embedding_requests_total')).toEqual({
      [`cairn_embedding_requests_total ${model} outcome=ok provider=ollama`]: 3,
      [`cairn_embedding_requests_total ${model} outcome=rate_limited provider=ollama`]: 1,
    });
    const sizes = await samples(registry, 'cairn_embedding_batch_size');
    expect(sizes['cairn_embedding_batch_size_count']).toBe(4);
    expect(sizes['cairn_embedding_batch_size_sum']).toBe(71);
    expect(sizes['cairn_embedding_batch_size_bucket le=8']).toBe(2); // the 6 and the 1
    const latency = await samples(registry, 'cairn_embedding_latency_seconds');
    expect(latency[`cairn_embedding_latency_seconds_count ${model} provider=ollama`]).toBe(4);
  });

  it('measures the built-in hash embedder too, as provider hash', async () => {
    const metrics = new MetricsService();
    const embedder = new MeasuredEmbedder(new HashEmbedder(), new EmbeddingMetrics(metrics), 2);
    expect(embedder.model).toBe(HASH_MODEL);
    const vectors = await embedder.embed(['a', 'b', 'c']);
    expect(vectors).toHaveLength(3);
    expect(Array.from(vectors[2] ?? [])).toEqual(Array.from(new HashEmbedder().embedOne('c')));
    expect(await samples(metrics, 'cairn_embedding_requests_total')).toEqual({
      'cairn_embedding_requests_total model=cairn-hash-v1 outcome=ok provider=hash': 2,
    });
  });
});

describe('EmbeddingsModule', () => {
  it('provides the measured hash embedder by default, with no provider readiness check', async () => {
    const moduleRef = await boot({});
    expect(moduleRef.get<Embedder>(EMBEDDER).model).toBe(HASH_MODEL);
    const { checks } = await moduleRef.get(ReadinessRegistry).evaluate();
    expect(checks).not.toHaveProperty('embedding-provider');
  });

  it('provides the configured provider embedder, and its readiness check', async () => {
    const server = await startFakeModelServer({ dimensions: 8, models: ['nomic-embed-text:latest'] });
    try {
      const ollama = await boot({
        EMBEDDING_PROVIDER: 'ollama',
        EMBEDDING_MODEL: 'nomic-embed-text',
        EMBEDDING_DIMENSIONS: '8',
        OLLAMA_URL: server.url,
      });
      expect(ollama.get<Embedder>(EMBEDDER).model).toMatchObject({ id: 'ollama-nomic-embed-text-8', builtIn: false });
      expect((await ollama.get(ReadinessRegistry).evaluate()).checks['embedding-provider']).toMatchObject({ ok: true });
      await ollama.close();

      const openai = await boot({
        EMBEDDING_PROVIDER: 'openai',
        EMBEDDING_MODEL: 'text-embedding-3-small',
        EMBEDDING_DIMENSIONS: '8',
        OPENAI_BASE_URL: `${server.url}/v1`,
      });
      expect(openai.get<Embedder>(EMBEDDER).model.id).toBe('openai-text-embedding-3-small-8');
      expect((await openai.get(ReadinessRegistry).evaluate()).checks['embedding-provider']).toMatchObject({
        ok: false,
        detail: expect.stringContaining('model text-embedding-3-small is not served'),
      });
    } finally {
      await server.close();
    }
  });
});
