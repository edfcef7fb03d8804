import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

/**
 * What makes an offline client's queued writes safe to replay (issue 21 §3): an update or a
 * delete made from an older read names the version it saw and is refused with 409 when the
 * memory has moved since, never applied over a change its writer has not seen; a session
 * event with an idempotency key is recorded once however often it is sent.
 */
describe('replay guards: expectedVersion and keyed session events', () => {
  let api: ApiHarness;
  let w: MemoryWorld;

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
  });
  afterAll(() => api.close());

  it('applies an update at the expected version and refuses one whose version moved, changing nothing', async () => {
    const { memory } = await store(w.agent, w.project, { content: 'Staging deploys run nightly' });
    const url = memoriesUrl(w.project, `/${memory.id}`);
    const first = await w.agent.patch(url, { content: 'Staging deploys run on merge', expectedVersion: 1 });
    expect(first.status).toBe(200);
    expect(first.body.memory.version).toBe(2);

    const stale = await w.agent.patch(url, { content: 'Staging deploys run hourly', expectedVersion: 1 });
    expect(stale.status).toBe(409);
    expect(stale.body.error).toMatchObject({
      code: 'version_conflict',
      message: expect.stringMatching(/version 2, not 1/),
    });
    expect((await w.agent.get(url)).body).toMatchObject({ content: 'Staging deploys run on merge', version: 2 });
  });

  it('does not count expectedVersion as a change, and refuses a bad one as 400', async () => {
    const { memory } = await store(w.agent, w.project, { content: 'The linter is eslint' });
    const url = memoriesUrl(w.project, `/${memory.id}`);
    expect((await w.agent.patch(url, { expectedVersion: 1 })).status).toBe(400);
    expect((await w.agent.patch(url, { content: 'x', expectedVersion: 0 })).status).toBe(400);
    expect((await w.agent.patch(url, { content: 'x', expectedVersion: 'one' })).status).toBe(400);
  });

  it('deletes at the expected version, refuses a delete of a memory that moved, and 404s one already gone', async () => {
    const { memory } = await store(w.agent, w.project, { content: 'Feature flags live in LaunchDarkly' });
    const url = memoriesUrl(w.project, `/${memory.id}`);
    expect((await w.agent.patch(url, { importance: 5 })).status).toBe(200);
    const stale = await w.agent.delete(`${url}?expectedVersion=1`);
    expect(stale.status).toBe(409);
    expect(stale.body.error.code).toBe('version_conflict');
    expect((await w.agent.get(url)).status).toBe(200);
    expect((await w.agent.delete(`${url}?expectedVersion=2`)).status).toBe(204);
    expect((await w.agent.delete(`${url}?expectedVersion=2`)).status).toBe(404);
    expect((await w.agent.delete(`${url}?expectedVersion=zero`)).status).toBe(400);
  });

  it('records a keyed session event once, refuses another event under the key, and keeps keys per agent', async () => {
    const url = `/v1/projects/${w.project}/events`;
    const body = { kind: 'decision', summary: 'Keep v1 webhooks', idempotencyKey: 'evt-1' };
    const first = await w.agent.post(url, body);
    expect(first.status).toBe(201);
    const again = await w.agent.post(url, body);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
    const reused = await w.agent.post(url, { ...body, summary: 'Something else' });
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('idempotency_key_reused');
    const theirs = await w.otherAgent.post(url, body);
    expect(theirs.status).toBe(201);
    expect(theirs.body.id).not.toBe(first.body.id);
    const events = (await w.agent.get(`${url}?limit=50`)).body.items.filter(
      (event: { summary: string }) => event.summary === 'Keep v1 webhooks',
    );
    expect(events).toHaveLength(2);
    expect((await w.agent.post(url, { ...body, idempotencyKey: 'has space' })).status).toBe(400);
  });
});
