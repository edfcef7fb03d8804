import { DataSource } from 'typeorm';
import { type ApiHarness } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';
import { type ModelStack, OLLAMA_MODEL_ID, startModelStack } from './model-stack';

/** Facts unlike everything else in the project, each with a question that should find it. */
const OUTLIERS = [
  ['The quarterly billing reconciliation runs on the first Monday', 'billing reconciliation first monday'],
  ['Staging certificates are rotated by cert-manager every sixty days', 'staging certificates rotated cert-manager'],
  ['Feature flags live in LaunchDarkly under the platform workspace', 'feature flags launchdarkly workspace'],
  ['Nightly backups are copied to the Frankfurt bucket with object lock', 'nightly backups frankfurt bucket'],
  ['The mobile app pins TLS keys for the public API gateway', 'mobile app pins tls keys'],
] as const;
const ROUTINE_NOTES = 240;

/**
 * A small project (a typical team's memory): a few distinctive facts among many
 * near-identical notes, stored in random order. An approximate HNSW walk can strand such an
 * outlier (its neighbours prune the links back to it), and then no semantic query ever
 * returns it; below the exact-scan size every vector is compared, so each fact is found.
 * Vectors come from an Ollama-speaking model server with a bag-of-words model: with the
 * index alone, each outlier here was missed in about a third of orderings.
 */
describe('semantic recall in a small project', () => {
  let stack: ModelStack;
  let api: ApiHarness;
  let w: MemoryWorld;

  beforeAll(async () => {
    stack = await startModelStack();
    api = stack.api;
    w = await memoryWorld(api);
  });
  afterAll(() => stack?.close());

  async function waitUntilAllEmbedded(expected: number): Promise<void> {
    const dataSource = api.app.get(DataSource);
    for (let attempt = 0; attempt < 400; attempt += 1) {
      const [row] = await dataSource.query<{ n: string }[]>(
        `SELECT count(*) AS n FROM "${w.tenant.schema}".memories WHERE embedded_hash = content_hash AND embedding_model = $1`,
        [OLLAMA_MODEL_ID],
      );
      if (Number(row?.n) === expected) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('memories were not embedded by the worker within 20 s');
  }

  it('returns every distinctive fact first for its question, however the notes were ordered', async () => {
    const contents = [
      ...OUTLIERS.map(([content]) => content),
      ...Array.from({ length: ROUTINE_NOTES }, (_, i) => `Routine note number ${i} about module ${i % 7}`),
    ].sort(() => Math.random() - 0.5);
    const ids = new Map<string, string>();
    for (const content of contents) ids.set(content, (await store(w.agent, w.project, { content })).memory.id);
    await waitUntilAllEmbedded(contents.length);

    for (const [content, question] of OUTLIERS) {
      const found = await w.agent.post(memoriesUrl(w.project, '/search'), { query: question, mode: 'semantic' });
      expect(found.status).toBe(200);
      expect(found.body.report.mode).toBe('semantic');
      expect(found.body.results[0]?.memory.id).toBe(ids.get(content));
    }
  });
});
