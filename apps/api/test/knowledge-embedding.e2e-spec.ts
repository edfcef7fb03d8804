import { randomBytes } from 'node:crypto';
import { type TestingModule } from '@nestjs/testing';
import {
  createProject,
  createTenant,
  issueToken,
  runJob,
  type TenantFixture,
  testConfig,
  type TestClient,
  testRedisUrl,
  startWorkerContext,
} from '@cairn/testing';
import { WorkerModule } from '@cairn/worker-app';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';

/**
 * The whole write path: the api indexes and enqueues, a real BullMQ consumer (the worker's
 * own modules, on the same database and a queue prefix of this file) stores the vectors,
 * and semantic search then finds the chunk.
 */
describe('knowledge base embeddings through the real queue', () => {
  const prefix = `kbemb${randomBytes(4).toString('hex')}`;
  let api: ApiHarness;
  let worker: TestingModule;
  let tenant: TenantFixture;
  let project: string;
  let agent: TestClient;

  const sql = <T = any>(query: string, params: unknown[] = []) =>
    api.app.get(DataSource).query<T[]>(query.replaceAll('{schema}', `"${tenant.schema}"`), params);

  async function waitForEmbedding(documentId: string): Promise<{ model: string | null }[]> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const rows = await sql<{ model: string | null }>(
        `SELECT embedding_model AS model FROM {schema}.kb_chunks WHERE document_id = $1`,
        [documentId],
      );
      if (rows.length > 0 && rows.every((row) => row.model === 'cairn-hash-v1')) return rows;
      if (Date.now() > deadline) return rows;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  beforeAll(async () => {
    api = await startApi({ QUEUE_PREFIX: prefix });
    // The real worker app, every job handler and consumer included.
    worker = await startWorkerContext(
      WorkerModule.register(testConfig(api.database.url, testRedisUrl(), { QUEUE_PREFIX: prefix }, 'worker')),
    );
    tenant = await createTenant(api.admin);
    project = (await createProject(api.admin, tenant.slug)).slug;
    agent = api.client.as((await issueToken(api.admin, tenant.slug, { role: 'agent' })).token);
  });
  afterAll(async () => {
    await worker?.close();
    await api?.close();
  });

  it('embeds indexed chunks in the worker, after which semantic search finds them', async () => {
    const text = [
      'The billing reconciler replays ledger entries nightly and flags mismatched invoices.',
      'Kubernetes operators rotate the reconciler credentials every quarter.',
    ].join('\n\n');
    const indexed = await agent.post(`/v1/projects/${project}/kb/documents`, { source: 'docs/billing.md', text });
    expect(indexed.status).toBe(201);
    expect(indexed.body.embedding).toBe('queued');

    const rows = await waitForEmbedding(indexed.body.document.id);
    expect(rows.map((row) => row.model)).toEqual(['cairn-hash-v1']);
    const [vector] = await sql<{ dims: number; current: boolean }>(
      `SELECT vector_dims(embedding) AS dims, embedded_hash = content_hash AS current, embedded_at IS NOT NULL AS at
       FROM {schema}.kb_chunks WHERE document_id = $1`,
      [indexed.body.document.id],
    );
    expect(vector).toMatchObject({ dims: 384, current: true, at: true });

    const semantic = await agent.post(`/v1/projects/${project}/kb/search`, {
      query: 'ledger reconciler invoices',
      mode: 'semantic',
      explain: true,
    });
    expect(semantic.status).toBe(200);
    expect(semantic.body.report).toMatchObject({
      requestedMode: 'semantic',
      mode: 'semantic',
      embeddingModel: 'cairn-hash-v1',
    });
    expect(semantic.body.report.notes.join(' ')).toContain('hash embedder');
    expect(semantic.body.results[0]).toMatchObject({ documentId: indexed.body.document.id, untrusted: false });
    expect(semantic.body.results[0].explain.semantic).toMatchObject({ rank: 1, score: expect.any(Number) });
    expect(semantic.body.results[0].explain.keyword).toBeUndefined();

    const hybrid = await agent.post('/v1/kb/search', { query: 'billing reconciler', explain: true });
    expect(hybrid.body.report.mode).toBe('hybrid');
    expect(hybrid.body.results[0].explain).toMatchObject({ keyword: { rank: 1 }, semantic: { rank: 1 } });
  });

  it('embeds the replacement of a source and never the chunks of expired documents', async () => {
    const url = `/v1/projects/${project}/kb/documents`;
    const v1 = await agent.post(url, { source: 'docs/oncall.md', text: 'Pager rotation starts on Mondays.' });
    await waitForEmbedding(v1.body.document.id);
    const v2 = await agent.post(url, { source: 'docs/oncall.md', text: 'Pager rotation starts on Tuesdays now.' });
    expect(v2.body).toMatchObject({ replaced: 1, embedding: 'queued' });
    expect((await waitForEmbedding(v2.body.document.id)).map((row) => row.model)).toEqual(['cairn-hash-v1']);

    const [chunk] = await sql<{ id: string }>(`SELECT id FROM {schema}.kb_chunks WHERE document_id = $1`, [
      v2.body.document.id,
    ]);
    // Re-running a finished job is harmless: nothing is pending.
    const job = { tenantId: tenant.id, target: 'kb_chunk' as const, ids: [chunk.id] };
    const embed = () => runJob(worker, 'embeddings', 'embed', job);
    expect(await embed()).toEqual({ status: 'skipped', detail: 'nothing left to embed' });
    // A chunk whose vector is gone is pending again, unless its document has expired.
    await sql(
      `UPDATE {schema}.kb_chunks SET embedding = NULL, embedding_model = NULL, embedded_hash = NULL WHERE id = $1`,
      [chunk.id],
    );
    await sql(`UPDATE {schema}.kb_documents SET expires_at = now() - interval '1 second' WHERE id = $1`, [
      v2.body.document.id,
    ]);
    expect(await embed()).toEqual({ status: 'skipped', detail: 'nothing left to embed' });
    await sql(`UPDATE {schema}.kb_documents SET expires_at = now() + interval '1 day' WHERE id = $1`, [
      v2.body.document.id,
    ]);
    expect(await embed()).toEqual({ status: 'done', counts: { embedded: 1 } });
  });
});
