import { fakeEmbedding, type FakeModelServer } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness } from './api-harness';
import { type MemoryWorld, memoryWorld, store } from './memory-fixtures';
import { type ModelStack, startModelStack } from './model-stack';

const WRITES = 24;
const BATCH = 8;

/**
 * Every write enqueues its own embed job. Against a model server that works on one request
 * at a time (a GPU with one slot), the worker must not queue one request per write: texts of
 * jobs that arrive while a request runs share the next one, and each memory still gets the
 * vector of its own text.
 */
describe('embedding writes under load', () => {
  let stack: ModelStack;
  let server: FakeModelServer;
  let api: ApiHarness;
  let w: MemoryWorld;

  beforeAll(async () => {
    stack = await startModelStack({
      server: { slots: 1 },
      env: {
        EMBEDDING_BATCH_SIZE: String(BATCH),
        EMBEDDING_MAX_IN_FLIGHT: '1',
        WORKER_CONCURRENCY_EMBEDDINGS: '16',
      },
    });
    ({ server, api } = stack);
    w = await memoryWorld(api);
  });
  afterAll(() => stack?.close());

  it('shares provider requests between concurrent jobs, each memory getting its own vector', async () => {
    // Long enough that all 24 writes arrive while a few requests run, even on a loaded machine.
    server.options.latencyMs = 300;
    const before = server.requests.length;
    const contents = Array.from({ length: WRITES }, (_, i) => `Service ${i} owns queue q${i} and topic t${i * 7}`);
    const ids = await Promise.all(
      contents.map(async (content) => (await store(w.agent, w.project, { content })).memory.id),
    );

    const dataSource = api.app.get(DataSource);
    let rows: { id: string; content: string; embedding: string }[] = [];
    for (let attempt = 0; attempt < 400 && rows.length < WRITES; attempt += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      rows = await dataSource.query(
        `SELECT id, content, embedding::text AS embedding FROM "${w.tenant.schema}".memories
         WHERE id = ANY($1::uuid[]) AND embedded_hash = content_hash`,
        [ids],
      );
    }
    expect(rows).toHaveLength(WRITES);

    const batches = server.requests
      .slice(before)
      .filter((request) => request.path === '/api/embed')
      .map((request) => request.body.input.length as number);
    // At least every write once (the start-up sweep may also pick up a row being written).
    expect(batches.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(WRITES);
    expect(batches.length).toBeLessThan(WRITES / 2);
    expect(Math.max(...batches)).toBeLessThanOrEqual(BATCH);
    // One request at a time, as configured: nothing waited in the server's queue.
    expect(server.peakOpenRequests('/api/embed')).toBe(1);

    for (const row of rows) {
      const stored = JSON.parse(row.embedding) as number[];
      const own = fakeEmbedding(row.content, 64);
      expect(cosine(stored, own)).toBeCloseTo(1, 5);
    }
  });
});

function cosine(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  a.forEach((value, i) => {
    dot += value * (b[i] ?? 0);
    na += value * value;
    nb += (b[i] ?? 0) ** 2;
  });
  return dot / Math.sqrt(na * nb);
}
