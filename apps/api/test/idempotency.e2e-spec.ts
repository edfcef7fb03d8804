import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld } from './memory-fixtures';

/**
 * `POST …/memories` with `Idempotency-Key`: a client whose answer was lost retries with the
 * same key and gets the memory its first call stored, never a duplicate; a different body
 * under the same key is a 409, so a reused key cannot silently drop a new memory.
 */
describe('memory store with an idempotency key', () => {
  let api: ApiHarness;
  let w: MemoryWorld;

  const storeWithKey = (client: MemoryWorld['agent'], key: string, body: Record<string, unknown>, project?: string) =>
    client.request('POST', memoriesUrl(project ?? w.project), body, { 'idempotency-key': key });
  const countContent = async (content: string) =>
    Number(
      (
        await api.app
          .get(DataSource)
          .query<{ n: string }[]>(`SELECT count(*) AS n FROM "${w.tenant.schema}".memories WHERE content = $1`, [
            content,
          ])
      )[0].n,
    );

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
  });
  afterAll(() => api.close());

  it('answers a repeat with the original memory and stores nothing new', async () => {
    const body = { content: 'The deploy pipeline runs on Buildkite', tags: ['ci'] };
    const first = await storeWithKey(w.agent, 'deploy-note-1', body);
    expect(first.status).toBe(201);
    expect(first.headers['idempotency-replayed']).toBeUndefined();
    const again = await storeWithKey(w.agent, 'deploy-note-1', body);
    expect(again.status).toBe(201);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.body.memory.id).toBe(first.body.memory.id);
    expect(again.body.memory.content).toBe(body.content);
    expect(await countContent(body.content)).toBe(1);
  });

  it('refuses another body under a used key with 409', async () => {
    expect((await storeWithKey(w.agent, 'reused', { content: 'First use of the key' })).status).toBe(201);
    const other = await storeWithKey(w.agent, 'reused', { content: 'Something else entirely' });
    expect(other.status).toBe(409);
    expect(other.body.error.code).toBe('idempotency_key_reused');
    expect(await countContent('Something else entirely')).toBe(0);
    // Same content, other fields: still another payload.
    const changed = await storeWithKey(w.agent, 'reused', { content: 'First use of the key', importance: 5 });
    expect(changed.status).toBe(409);
  });

  it('scopes keys to the token and the project', async () => {
    const body = { content: 'Keys are per token' };
    const mine = await storeWithKey(w.agent, 'shared-key', body);
    const theirs = await storeWithKey(w.otherAgent, 'shared-key', body);
    expect(theirs.status).toBe(201);
    expect(theirs.body.memory.id).not.toBe(mine.body.memory.id);
    const elsewhere = await storeWithKey(w.wideAgent, 'shared-key', body, w.otherProject);
    expect(elsewhere.status).toBe(201);
    expect(await countContent(body.content)).toBe(3);
  });

  it('stores once under concurrent repeats of one key', async () => {
    const body = { content: 'Ten retries racing each other' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => storeWithKey(w.agent, 'race', body)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(201));
    expect(new Set(answers.map((answer) => answer.body.memory.id)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers['idempotency-replayed'] === 'true')).toHaveLength(9);
    expect(await countContent(body.content)).toBe(1);
  });

  it('says when the memory stored under a key was deleted since', async () => {
    const body = { content: 'Deleted after storing' };
    const first = await storeWithKey(w.agent, 'gone', body);
    expect((await w.agent.delete(memoriesUrl(w.project, `/${first.body.memory.id}`))).status).toBe(204);
    const again = await storeWithKey(w.agent, 'gone', body);
    expect(again.status).toBe(409);
    expect(again.body.error.code).toBe('idempotency_key_stale');
  });

  it.each([
    ['empty', ''],
    ['with a space', 'a key'],
    ['too long', 'k'.repeat(201)],
  ])('refuses a key that is %s with 400', async (_name, key) => {
    const response = await storeWithKey(w.agent, key, { content: 'Bad key' });
    expect(response.status).toBe(400);
    expect(response.body.error.code).toBe('invalid_idempotency_key');
    expect(await countContent('Bad key')).toBe(0);
  });

  it('stores normally without a key (each call a new memory)', async () => {
    const body = { content: 'No key, two memories' };
    expect((await w.agent.post(memoriesUrl(w.project), body)).status).toBe(201);
    expect((await w.agent.post(memoriesUrl(w.project), body)).status).toBe(201);
    expect(await countContent(body.content)).toBe(2);
  });
});
