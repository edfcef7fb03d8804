import { type ApiHarness, startApi } from './api-harness';
import { memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

const NOT_A_UUID = "1' OR '1'='1";
const MISSING = '00000000-0000-4000-8000-000000000000';

/** Every memory route with malformed, oversized and unknown input: a 400 (or 404), never a 500. */
describe('memory API: bad input on every route', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  let id: string;

  beforeAll(async () => {
    api = await startApi({ MEMORY_CONTENT_MAX_CHARS: '500', HTTP_BODY_LIMIT_BYTES: '65536' });
    w = await memoryWorld(api);
    id = (await store(w.agent, w.project, { content: 'A valid memory to aim at' })).memory.id;
  });
  afterAll(() => api.close());

  const expectClean = (response: { status: number; body: any }, status = 400) => {
    expect({ status: response.status, body: response.body }).toMatchObject({ status });
    expect(response.body.error.code).toEqual(expect.any(String));
    expect(response.body.correlationId).toEqual(expect.any(String));
  };

  it('rejects malformed stores field by field', async () => {
    const valid = { content: 'ok', category: 'fact', tags: ['a'], keywords: ['b'], importance: 3, confidence: 0.5 };
    const bad: Record<string, unknown[]> = {
      content: ['', '   ', 42, null, ['x'], '\u0000\u0007'],
      category: ['gossip', 1, null],
      tags: ['not-an-array', [1], ['x'.repeat(65)], Array.from({ length: 33 }, (_, i) => `t${i}`)],
      keywords: [[''], Array.from({ length: 51 }, (_, i) => `k${i}`)],
      importance: [0, 6, 2.5, '3'],
      confidence: [-0.1, 1.1, 'high'],
      source: [
        { line: 3 },
        { path: '' },
        { path: 'a', line: 0 },
        { path: 'a', contentHash: 'short' },
        { path: 'a', extra: 1 },
      ],
      scope: ['galaxy'],
      supersedes: [[NOT_A_UUID], 'x', Array.from({ length: 21 }, () => MISSING)],
      pinned: ['yes'],
    };
    for (const [field, values] of Object.entries(bad)) {
      for (const value of values) {
        const response = await w.agent.post(memoriesUrl(w.project), { ...valid, [field]: value });
        expect({ field, value, status: response.status }).toMatchObject({ status: 400 });
        expectClean(response);
      }
    }
    expectClean(await w.agent.post(memoriesUrl(w.project), { ...valid, isAdmin: true }));
    expectClean(await w.agent.post(memoriesUrl(w.project), { ...valid, content: 'x'.repeat(501) }));
    expect((await w.agent.post(memoriesUrl(w.project), { ...valid, content: 'x'.repeat(70_000) })).status).toBe(413);
    for (const payload of ['[]', '"text"', '{"content":', 'null']) {
      expectClean(await w.agent.request('POST', memoriesUrl(w.project), payload));
    }
  });

  it('rejects bad ids, bad updates and bad relation or verify bodies', async () => {
    for (const path of [`/${encodeURIComponent(NOT_A_UUID)}`, '/123', `/${encodeURIComponent(NOT_A_UUID)}/history`]) {
      expectClean(await w.agent.get(memoriesUrl(w.project, path)));
    }
    expectClean(await w.agent.get(memoriesUrl(w.project, `/${MISSING}`)), 404);
    expectClean(await w.agent.patch(memoriesUrl(w.project, `/${id}`), {}));
    expectClean(await w.agent.patch(memoriesUrl(w.project, `/${id}`), { reason: 'only a reason' }));
    expectClean(await w.agent.patch(memoriesUrl(w.project, `/${id}`), { importance: 9 }));
    expectClean(await w.agent.patch(memoriesUrl(w.project, `/${id}`), { owner: 'me' }));
    expectClean(await w.agent.patch(memoriesUrl(w.project, `/${MISSING}`), { importance: 2 }), 404);
    const relations = memoriesUrl(w.project, `/${id}/relations`);
    for (const body of [
      {},
      { toId: NOT_A_UUID, type: 'related_to' },
      { toId: MISSING, type: 'friends' },
      { toId: MISSING, type: 'related_to', note: 'n'.repeat(501) },
    ]) {
      expectClean(await w.agent.post(relations, body));
    }
    expectClean(await w.agent.post(relations, { toId: MISSING, type: 'related_to' }), 404);
    for (const body of [
      {},
      { contentHash: 'short' },
      { contentHash: 'sha256:ok-but-extra', x: 1 },
      { contentHash: 7 },
    ]) {
      expectClean(await w.agent.post(memoriesUrl(w.project, `/${id}/verify`), body));
    }
    expectClean(await w.agent.get(memoriesUrl(w.project, `/${id}/related?type=enemies`)));
  });

  it('rejects bad list and stale queries', async () => {
    for (const query of [
      'limit=0',
      'limit=201',
      'limit=ten',
      `cursor=${encodeURIComponent(NOT_A_UUID)}`,
      'category=gossip',
      'stale=maybe',
      'createdAfter=yesterday',
      'authorUserId=bob',
      'authorAgentId=has%20space',
      'scope=universe',
      'unknown=1',
    ]) {
      expectClean(await w.agent.get(memoriesUrl(w.project, `?${query}`)));
    }
    expectClean(await w.agent.get(memoriesUrl(w.project, '/stale?limit=0')));
  });

  it('rejects bad paths and foreign projects cleanly', async () => {
    expectClean(await w.agent.get('/v1/projects/UPPER/memories'));
    expectClean(await w.agent.get(`/v1/projects/${encodeURIComponent("a'; drop")}/memories`));
    expectClean(await w.agent.get(memoriesUrl(w.otherProject)), 403);
    expectClean(await w.member.get(memoriesUrl('no-such-project')), 404);
    expectClean(await api.client.get(memoriesUrl(w.project)), 401);
  });

  it('still serves valid requests afterwards, with nothing half-written', async () => {
    const listed = await w.agent.get(memoriesUrl(w.project, '?limit=200'));
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((m: { content: string }) => m.content)).toEqual(['A valid memory to aim at']);
  });
});
