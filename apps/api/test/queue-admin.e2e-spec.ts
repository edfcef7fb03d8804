import { randomUUID } from 'node:crypto';
import { JobQueue } from '@cairn/jobs';
import { createTenant, issueToken, type TenantFixture, type TestClient, testRedisUrl } from '@cairn/testing';
import { UnrecoverableError, Worker } from 'bullmq';
import { type ApiHarness, startApi } from './api-harness';

describe('queue administration', () => {
  let api: ApiHarness;
  let a: TenantFixture;
  let b: TenantFixture;
  let aAdmin: TestClient;
  let failer: Worker;
  const jobIds: Record<string, string> = {};

  beforeAll(async () => {
    api = await startApi();
    a = await createTenant(api.admin);
    b = await createTenant(api.admin);
    aAdmin = api.client.as((await issueToken(api.admin, a.slug, { role: 'admin' })).token);
    // A consumer that fails every job for good, so there are failed jobs to look at.
    failer = new Worker(
      'embeddings',
      () => Promise.reject(new UnrecoverableError('provider said no\n    at stack line')),
      { connection: { url: testRedisUrl() } as never, prefix: api.config.queues.prefix },
    );
    const jobs = api.app.get(JobQueue);
    for (const tenant of [a, b]) {
      jobIds[tenant.slug] = `fail-${tenant.id}`;
      await jobs.enqueue(
        'embeddings',
        'embed',
        { tenantId: tenant.id, target: 'memory', ids: [randomUUID()], origin: 'interactive' },
        { jobId: jobIds[tenant.slug] },
      );
    }
    const queue = jobs.queue('embeddings');
    for (let i = 0; i < 200 && (await queue.getFailedCount()) < 2; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await failer.close();
  });
  afterAll(async () => {
    await failer.close();
    await api.close();
  });

  it('shows jobs per state per queue to the platform admin only', async () => {
    const overview = await api.admin.get('/v1/admin/queues');
    expect(overview.status).toBe(200);
    const embeddings = overview.body.queues.find((q: { queue: string }) => q.queue === 'embeddings');
    expect(embeddings.counts.failed).toBe(2);
    expect(overview.body.queues.map((q: { queue: string }) => q.queue)).toEqual(
      expect.arrayContaining(['embeddings', 'maintenance']),
    );
    const denied = await aAdmin.get('/v1/admin/queues');
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('platform_admin_required');
  });

  it('lists failed jobs with their first error line, by tenant when asked', async () => {
    const all = await api.admin.get('/v1/admin/jobs/failed?queue=embeddings');
    expect(all.body.items).toHaveLength(2);
    expect(all.body.items[0]).toMatchObject({ queue: 'embeddings', name: 'embed', failedReason: 'provider said no' });
    const onlyA = await api.admin.get(`/v1/admin/jobs/failed?tenant=${a.id}`);
    expect(onlyA.body.items.map((j: { tenantId: string }) => j.tenantId)).toEqual([a.id]);
    const own = await aAdmin.get(`/v1/tenants/${a.slug}/jobs/failed`);
    expect(own.status).toBe(200);
    expect(own.body.items.map((j: { id: string }) => j.id)).toEqual([jobIds[a.slug]]);
    expect((await aAdmin.get(`/v1/tenants/${b.slug}/jobs/failed`)).status).toBe(403);
  });

  it("retries one job, never another tenant's, and all of a tenant's", async () => {
    const queue = api.app.get(JobQueue).queue('embeddings');
    const foreign = await aAdmin.post(`/v1/tenants/${a.slug}/queues/embeddings/jobs/${jobIds[b.slug]}/retry`);
    expect(foreign.status).toBe(404);
    expect(await (await queue.getJob(jobIds[b.slug]))!.isFailed()).toBe(true);

    const own = await aAdmin.post(`/v1/tenants/${a.slug}/queues/embeddings/jobs/${jobIds[a.slug]}/retry`);
    expect(own.status).toBe(204);
    expect(await (await queue.getJob(jobIds[a.slug]))!.isWaiting()).toBe(true);
    expect((await aAdmin.post(`/v1/tenants/${a.slug}/queues/embeddings/jobs/${jobIds[a.slug]}/retry`)).status).toBe(
      404,
    );

    const rest = await api.admin.post('/v1/admin/jobs/failed/retry', { tenant: b.id });
    expect(rest.body).toEqual({ retried: 1 });
    expect((await api.admin.get('/v1/admin/jobs/failed')).body.items).toEqual([]);
  });

  it("pages failed jobs and removes one for good, never another tenant's", async () => {
    const jobs = api.app.get(JobQueue);
    const queue = jobs.queue('embeddings');
    const ids = [`gone-1-${a.id}`, `gone-2-${a.id}`, `kept-${b.id}`];
    // The jobs retried above wait in the queue; this worker would fail them again.
    await queue.drain();
    failer = new Worker('embeddings', () => Promise.reject(new UnrecoverableError('still no')), {
      connection: { url: testRedisUrl() } as never,
      prefix: api.config.queues.prefix,
    });
    for (const [index, jobId] of ids.entries()) {
      const tenantId = index < 2 ? a.id : b.id;
      await jobs.enqueue(
        'embeddings',
        'embed',
        { tenantId, target: 'memory', ids: [randomUUID()], origin: 'interactive' },
        { jobId },
      );
    }
    for (let i = 0; i < 200 && (await queue.getFailedCount()) < 3; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await failer.close();

    const first = await api.admin.get('/v1/admin/jobs/failed?limit=2');
    expect(first.body.items).toHaveLength(2);
    expect(first.body.nextCursor).toBe('2');
    const second = await api.admin.get(`/v1/admin/jobs/failed?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.items).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
    const seen = [...first.body.items, ...second.body.items].map((j: { id: string }) => j.id);
    expect(seen.sort()).toEqual([...ids].sort());
    const own = await aAdmin.get(`/v1/tenants/${a.slug}/jobs/failed?limit=1`);
    expect(own.body).toMatchObject({ items: [{ tenantId: a.id }], nextCursor: '1' });

    expect((await aAdmin.delete(`/v1/tenants/${a.slug}/queues/embeddings/jobs/${ids[2]}`)).status).toBe(404);
    expect(await (await queue.getJob(ids[2]))!.isFailed()).toBe(true);
    expect((await aAdmin.delete(`/v1/tenants/${b.slug}/queues/embeddings/jobs/${ids[2]}`)).status).toBe(403);
    expect((await aAdmin.delete(`/v1/tenants/${a.slug}/queues/embeddings/jobs/${ids[0]}`)).status).toBe(204);
    expect(await queue.getJob(ids[0])).toBeUndefined();
    expect((await aAdmin.delete(`/v1/tenants/${a.slug}/queues/embeddings/jobs/${ids[0]}`)).status).toBe(404);
    expect((await aAdmin.delete(`/v1/admin/queues/embeddings/jobs/${ids[1]}`)).status).toBe(403);

    // A job that is not failed (waiting here) is never removed: that would drop live work.
    await aAdmin.post(`/v1/tenants/${a.slug}/queues/embeddings/jobs/${ids[1]}/retry`);
    expect((await aAdmin.delete(`/v1/tenants/${a.slug}/queues/embeddings/jobs/${ids[1]}`)).status).toBe(404);
    expect(await (await queue.getJob(ids[1]))!.isWaiting()).toBe(true);

    expect((await api.admin.delete(`/v1/admin/queues/embeddings/jobs/${ids[2]}`)).status).toBe(204);
    expect((await api.admin.get('/v1/admin/jobs/failed')).body).toEqual({ items: [], nextCursor: null });
    const audit = await api.admin.get(`/v1/tenants/${a.slug}/audit?limit=20`);
    expect(audit.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'job.remove', outcome: 'success', status: 204 })]),
    );
  });

  it('rejects bad input cleanly', async () => {
    for (const url of [
      '/v1/admin/jobs/failed?queue=nope',
      '/v1/admin/jobs/failed?tenant=acme',
      '/v1/admin/jobs/failed?limit=0',
      '/v1/admin/jobs/failed?x=1',
      '/v1/admin/jobs/failed?cursor=-1',
      '/v1/admin/jobs/failed?cursor=abc',
    ]) {
      const response = await api.admin.get(url);
      expect(response.status).toBe(400);
      expect(response.body.error.code).toBe('validation_failed');
    }
    expect((await api.admin.post('/v1/admin/queues/nope/jobs/x/retry')).status).toBe(400);
    expect((await api.admin.post('/v1/admin/queues/embeddings/jobs/no-such-job/retry')).status).toBe(404);
    expect((await api.admin.delete('/v1/admin/queues/nope/jobs/x')).status).toBe(400);
    expect((await api.admin.delete('/v1/admin/queues/embeddings/jobs/a%20b')).status).toBe(400);
    expect((await api.admin.delete('/v1/admin/queues/embeddings/jobs/no-such-job')).status).toBe(404);
    expect((await api.admin.post('/v1/admin/jobs/failed/retry', { queue: 'embeddings', extra: 1 })).status).toBe(400);
  });
});
