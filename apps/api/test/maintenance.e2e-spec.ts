import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { type TestingModule } from '@nestjs/testing';
import { EmbeddingsModule, EmbeddingTargetsModule, EmbeddingWorkerModule, indexName } from '@cairn/embeddings';
import { JobHandlers, JobQueue, JobsModule } from '@cairn/jobs';
import { KnowledgeModule } from '@cairn/knowledge';
import { MaintenanceWorkerModule } from '@cairn/maintenance';
import { MemoryModule } from '@cairn/memory';
import { ProjectsModule } from '@cairn/projects';
import { SearchModule } from '@cairn/search';
import { TenancyModule } from '@cairn/tenancy';
import { createDbTestingModule, createTenant, runJob, testConfig, testRedisUrl } from '@cairn/testing';
import { TenantAuditLog } from '@cairn/audit';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

/**
 * The worker's maintenance handlers, run as the job runner runs them (through the handler
 * registry), against data written through the api. The worker module here uses a queue
 * prefix of its own, so the api's own embed jobs are never consumed: they stand for lost
 * enqueues that only the sweep can recover.
 */
describe('maintenance jobs', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let worker: TestingModule;
  const prefix = `mnt${randomBytes(4).toString('hex')}`;

  const sql = <T = any>(query: string, params: unknown[] = []) =>
    api.app.get(DataSource).query<T[]>(query.replaceAll('{schema}', `"${w.tenant.schema}"`), params);
  const run = (name: string, payload: Record<string, unknown>) =>
    worker
      .get(JobHandlers)
      .get('maintenance', name)!
      .handle(payload as never, {
        id: randomUUID(),
        attemptsMade: 0,
        queue: 'maintenance',
        name,
      });

  beforeAll(async () => {
    // No inline embedding: the sweep's case is a memory whose only embedding job was lost.
    api = await startApi({ EMBEDDING_INLINE: 'false' });
    w = await memoryWorld(api);
    worker = await createDbTestingModule(
      testConfig(api.database.url, testRedisUrl(), { QUEUE_PREFIX: prefix }, 'worker'),
      [
        TenancyModule,
        ProjectsModule,
        JobsModule,
        EmbeddingsModule,
        EmbeddingTargetsModule,
        SearchModule,
        MemoryModule,
        KnowledgeModule,
        EmbeddingWorkerModule,
        MaintenanceWorkerModule,
      ],
    );
  });
  afterAll(async () => {
    await worker.close();
    await api.close();
  });

  it('sweeps rows that never got their vector, and rolls the model out to the tenant', async () => {
    const { memory } = await store(w.agent, w.project, { content: 'Lost enqueue: this memory was never embedded' });
    const fresh = await run('stale-embedding-sweep', { tenantId: w.tenant.id });
    // Rows younger than two minutes are left to their own job.
    expect(fresh.counts?.memory).toBe(0);
    await sql(`UPDATE {schema}.memories SET updated_at = now() - interval '10 minutes' WHERE id = $1`, [memory.id]);
    const swept = await run('stale-embedding-sweep', { tenantId: w.tenant.id });
    expect(swept.counts?.memory).toBe(1);

    const waiting = await worker.get(JobQueue).queue('embeddings').getJobs(['waiting', 'prioritized', 'delayed']);
    const job = waiting.find((candidate) => (candidate.data as { ids: string[] }).ids.includes(memory.id));
    // Bulk work: behind interactive writes, sharing the queue with other tenants' bulk work in turn.
    expect(job?.data).toMatchObject({ tenantId: w.tenant.id, target: 'memory', origin: 'bulk' });
    expect(job?.opts.priority).toBeGreaterThan(0);
    await runJob(worker, 'embeddings', 'embed', job!.data as never);
    const [row] = await sql<{ model: string }>(`SELECT embedding_model AS model FROM {schema}.memories WHERE id = $1`, [
      memory.id,
    ]);
    expect(row?.model).toBe('cairn-hash-v1');

    const [state] = await sql<{ model: string }>(`SELECT model FROM {schema}.embedding_backfills`);
    expect(state?.model).toBe('cairn-hash-v1');
    const indexes = await sql<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE schemaname = $1`, [
      w.tenant.schema,
    ]);
    expect(indexes.map((i) => i.indexname)).toEqual(
      expect.arrayContaining([indexName('memories', 'cairn-hash-v1'), indexName('kb_chunks', 'cairn-hash-v1')]),
    );
    expect((await run('stale-embedding-sweep', { tenantId: w.tenant.id })).counts?.memory).toBe(0);
  });

  it('purges only expired knowledge-base documents, per tier', async () => {
    const index = (source: string, sourceType: string) =>
      w.agent.post(`/v1/projects/${w.project}/kb/documents`, { source, text: `Text of ${source}`, sourceType });
    const old = (await index('old-page', 'external')).body.document.id;
    const recent = (await index('recent-page', 'external')).body.document.id;
    const internal = (await index('internal-notes', 'internal')).body.document.id;
    // Indexed 15 days ago: past the external tier's 14 days (the purge dates expiry from then).
    await sql(
      `UPDATE {schema}.kb_documents SET retained_from = now() - interval '15 days', expires_at = now() - interval '1 day'
       WHERE id = $1`,
      [old],
    );
    const result = await run('retention-purge', { tenantId: w.tenant.id });
    expect(result.counts).toMatchObject({ external: 1, internal: 0, summary: 0 });
    const left = await sql<{ id: string }>(`SELECT id FROM {schema}.kb_documents`);
    expect(left.map((d) => d.id).sort()).toEqual([recent, internal].sort());
  });

  it('prunes audit entries past AUDIT_RETENTION_DAYS, leaving a chain that verifies', async () => {
    const tenant = await createTenant(api.admin);
    const log = worker.get(TenantAuditLog);
    const entry = { actor: 'token:t', action: 'mcp.status', target: null, status: null, requestId: null };
    await log.appendMany(tenant.schema, [
      { ...entry, outcome: 'success', at: new Date(Date.now() - 400 * 86_400_000) },
    ]);
    await log.appendMany(tenant.schema, [{ ...entry, outcome: 'success' }]);
    const result = await run('retention-purge', { tenantId: tenant.id });
    expect(result.counts?.auditEntries).toBe(1);
    expect(await log.verify(tenant.schema)).toMatchObject({ valid: true, entries: 1 });
  });

  it('prunes memory_store idempotency keys after 24 hours; a later repeat stores anew', async () => {
    const post = (key: string) =>
      w.agent.request('POST', memoriesUrl(w.project), { content: `Stored under ${key}` }, { 'idempotency-key': key });
    const old = (await post('day-old')).body.memory.id;
    await post('fresh');
    // Keys are stored as their SHA-256.
    const digest = (key: string) => createHash('sha256').update(key).digest('hex');
    await sql(`UPDATE {schema}.memory_idempotency_keys SET created_at = now() - interval '25 hours' WHERE key = $1`, [
      digest('day-old'),
    ]);
    const result = await run('retention-purge', { tenantId: w.tenant.id });
    expect(result.counts?.idempotencyKeys).toBe(1);
    const keys = await sql<{ key: string }>(`SELECT key FROM {schema}.memory_idempotency_keys ORDER BY key`);
    expect(keys.map((row) => row.key)).toEqual([digest('fresh')]);
    const later = await post('day-old');
    expect(later.headers['idempotency-replayed']).toBeUndefined();
    expect(later.body.memory.id).not.toBe(old);
    expect((await post('fresh')).headers['idempotency-replayed']).toBe('true');
  });

  it('decays unused memories by a bounded step, and never pinned ones', async () => {
    const unused = (await store(w.agent, w.project, { content: 'Nobody has read this in months', confidence: 0.8 }))
      .memory.id;
    const pinned = (await store(w.agent, w.project, { content: 'Pinned and unread', confidence: 0.8, pinned: true }))
      .memory.id;
    const low = (await store(w.agent, w.project, { content: 'Almost forgotten already', confidence: 0.1 })).memory.id;
    await sql(
      `UPDATE {schema}.memories SET created_at = now() - interval '90 days', last_accessed_at = NULL WHERE id = ANY($1::uuid[])`,
      [[unused, pinned, low]],
    );
    await run('confidence-decay', { tenantId: w.tenant.id });
    const rows = await sql<{ id: string; confidence: number }>(
      `SELECT id, confidence FROM {schema}.memories WHERE id = ANY($1::uuid[])`,
      [[unused, pinned, low]],
    );
    const confidence = Object.fromEntries(rows.map((r) => [r.id, Number(r.confidence)]));
    expect(confidence[unused]).toBeCloseTo(0.76, 5);
    expect(confidence[pinned]).toBeCloseTo(0.8, 5);
    expect(confidence[low]).toBeCloseTo(0.1, 5);
  });

  it('stores duplicate candidates for listing without recomputation', async () => {
    const a = (await store(w.wideAgent, w.otherProject, { content: 'The release train leaves on Thursdays' })).memory
      .id;
    const b = (await store(w.wideAgent, w.otherProject, { content: 'the release train  leaves on thursdays' })).memory
      .id;
    const before = await w.member.get(memoriesUrl(w.otherProject, '/duplicates?source=scan'));
    expect(before.body.pairs).toEqual([]);
    const scan = await run('duplicate-scan', { tenantId: w.tenant.id });
    expect(scan.counts?.pairs).toBeGreaterThanOrEqual(1);
    const listed = await w.member.get(memoriesUrl(w.otherProject, '/duplicates?source=scan'));
    expect(listed.status).toBe(200);
    expect(listed.body.pairs).toEqual([
      expect.objectContaining({ a: [a, b].sort()[0], b: [a, b].sort()[1], reason: 'same_content' }),
    ]);
  });

  it('fans a task out to one job per tenant, once per window', async () => {
    const queue = worker.get(JobQueue).queue('maintenance');
    const count = async () =>
      (await queue.getJobs(['waiting', 'prioritized', 'delayed'])).filter((job) => job.name === 'retention-purge')
        .length;
    const before = await count();
    const first = await run('schedule-maintenance', { task: 'retention-purge' });
    expect(first.counts?.tenants).toBeGreaterThanOrEqual(1);
    const afterFirst = await count();
    expect(afterFirst).toBeGreaterThan(before);
    await run('schedule-maintenance', { task: 'retention-purge' });
    expect(await count()).toBe(afterFirst);
    const jobs = await queue.getJobs(['waiting', 'prioritized', 'delayed']);
    expect(jobs.some((job) => (job.data as { tenantId?: string }).tenantId === w.tenant.id)).toBe(true);
    const schedulers = await queue.getJobSchedulers();
    expect(schedulers.map((s) => s.key ?? s.id).sort()).toEqual(
      expect.arrayContaining(['maintenance-retention-purge', 'maintenance-stale-embedding-sweep']),
    );
  });
});
