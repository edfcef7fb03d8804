import { createProject, createTenant, issueToken } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';
import { freePort } from './process-harness';

/** With Redis unreachable, writes still commit and the briefing says what it cannot know. */
describe('session briefing with Redis down', () => {
  let api: ApiHarness;

  beforeAll(async () => {
    // Inline embedding off: the memory waits for a vector, as it does when no in-process embedder serves.
    api = await startApi({ REDIS_URL: `redis://127.0.0.1:${await freePort()}`, EMBEDDING_INLINE: 'false' });
  });
  afterAll(() => api.close());

  it('reports pending embedding jobs as unknown, and why', async () => {
    const tenant = await createTenant(api.admin);
    const project = (await createProject(api.admin, tenant.slug)).slug;
    const { token } = await issueToken(api.admin, tenant.slug, { role: 'agent', projects: [project], agentId: 'a:1' });
    const client = api.client.as(token);
    const stored = await client.post(`/v1/projects/${project}/memories`, { content: 'Redis is down for maintenance' });
    expect(stored.status).toBe(201);
    expect((await client.request('PUT', `/v1/projects/${project}/working-memory/task`, { value: 'wait' })).status).toBe(
      200,
    );

    const response = await client.post(`/v1/projects/${project}/context`, {});
    expect(response.status).toBe(200);
    expect(response.body.status).toMatchObject({ pendingEmbeddingJobs: null, memoriesWithoutVector: 1 });
    expect(response.body.status.notes).toContain(
      'Redis did not answer: the number of pending embedding jobs is unknown',
    );
    expect(response.body.text).toContain('pending embedding jobs: unknown');
    expect(response.body.workingMemory.normal).toEqual([expect.objectContaining({ key: 'task', value: 'wait' })]);
  });
});
