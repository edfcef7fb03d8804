import { HybridSearch } from '@cairn/search';
import { type TestClient } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';
import { importLine, memoriesUrl, type MemoryWorld, memoryWorld, store } from './memory-fixtures';

/** Monday 10 June 2024, 15:00 UTC: "last Saturday" is 8 June. In the past whatever the test machine's clock says. */
const AS_OF = '2024-06-10T15:00:00Z';
const NDJSON = 'application/x-ndjson';

/**
 * When memories occurred (`occurredAt`) and questions with dates: stored, updated, imported and
 * exported with the memory; "last Saturday", "in May 2023", "the first time", "two weeks
 * before the trip" read against `asOf`, applied as a filter or a boost, and reported.
 */
describe('memories in time', () => {
  let api: ApiHarness;
  let w: MemoryWorld;
  const search = (body: Record<string, unknown>, client: TestClient = w.agent, project = w.project) =>
    client.post(memoriesUrl(project, '/search'), body);
  const contents = (response: { body: { results: { memory: { content: string } }[] } }) =>
    response.body.results.map((hit) => hit.memory.content);

  beforeAll(async () => {
    api = await startApi();
    w = await memoryWorld(api);
  });
  afterAll(() => api.close());

  describe('occurredAt on a memory', () => {
    it('defaults to the time of writing, and is kept as given', async () => {
      const plain = await store(w.agent, w.project, { content: 'Plain memory without a date' });
      expect(plain.memory.occurredAt).toBe(plain.memory.createdAt);
      const dated = await store(w.agent, w.project, {
        content: 'We agreed on trunk-based development',
        occurredAt: '2023-05-14T09:30:00+02:00',
      });
      expect(dated.memory.occurredAt).toBe('2023-05-14T07:30:00.000Z');
      expect(dated.memory.createdAt).not.toBe(dated.memory.occurredAt);
    });

    it('is changed by an update, the previous date kept in the history', async () => {
      const { memory } = await store(w.agent, w.project, {
        content: 'Moved CI to self-hosted runners',
        occurredAt: '2024-01-10T00:00:00Z',
      });
      const url = memoriesUrl(w.project, `/${memory.id}`);
      const updated = await w.agent.patch(url, { occurredAt: '2024-01-12T00:00:00Z', reason: 'wrong day' });
      expect(updated.status).toBe(200);
      expect(updated.body.memory).toMatchObject({ occurredAt: '2024-01-12T00:00:00.000Z', version: 2 });
      expect(updated.body.embedding).toBe('unchanged');
      const history = await w.agent.get(`${url}/history`);
      expect(history.body.versions[0].snapshot.occurredAt).toBe('2024-01-10T00:00:00.000Z');
      // An update that does not name it leaves it alone.
      const other = await w.agent.patch(url, { importance: 4 });
      expect(other.body.memory.occurredAt).toBe('2024-01-12T00:00:00.000Z');
    });

    it.each([
      ['yesterday', /occurredAt: must be an ISO 8601 date-time with a time zone/],
      ['2024-06-08', /occurredAt: must be an ISO 8601 date-time with a time zone/],
      ['2024-06-08T10:00:00', /occurredAt: must be an ISO 8601 date-time with a time zone/],
      ['2999-01-01T00:00:00Z', /occurredAt: must not be more than a day in the future/],
      [1717840800000, /occurredAt/],
    ])('refuses occurredAt %p with a clear 400', async (occurredAt, message) => {
      const response = await w.agent.post(memoriesUrl(w.project), { content: 'Refused', occurredAt });
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body.error)).toMatch(message);
      const updated = await w.agent.patch(memoriesUrl(w.project, `/${await firstId()}`), { occurredAt });
      expect(updated.status).toBe(400);
    });

    async function firstId(): Promise<string> {
      const list = await w.agent.get(memoriesUrl(w.project, '?limit=1'));
      return list.body.items[0].id;
    }

    it('travels with export and import; an import line without it occurs when it was created', async () => {
      const target = w.otherProject;
      const header = JSON.stringify({ format: 'cairn.memories', version: 1, project: target, exportedAt: AS_OF });
      const dated = importLine({ content: 'Imported with a date', occurredAt: '2022-02-02T02:02:02.000Z' });
      const undated = importLine({ content: 'Imported without a date' });
      const bad = importLine({ content: 'Imported from the future', occurredAt: '2999-01-01T00:00:00Z' });
      const refused = await w.member.request(
        'POST',
        memoriesUrl(target, '/import'),
        [header, JSON.stringify(bad)].join('\n'),
        { 'content-type': NDJSON },
      );
      expect(refused.status).toBe(400);
      expect(refused.body.error.message).toMatch(/line 2 occurredAt: must not be more than a day in the future/);
      const imported = await w.member.request(
        'POST',
        memoriesUrl(target, '/import'),
        [header, JSON.stringify(dated), JSON.stringify(undated)].join('\n'),
        { 'content-type': NDJSON },
      );
      expect(imported.status).toBe(200);
      const got = async (id: string) => (await w.member.get(memoriesUrl(target, `/${id}`))).body;
      expect((await got(dated.id)).occurredAt).toBe('2022-02-02T02:02:02.000Z');
      expect((await got(undated.id)).occurredAt).toBe(undated.createdAt);
      const exported = await api.app.inject({
        method: 'GET',
        url: memoriesUrl(target, '/export'),
        headers: { authorization: `Bearer ${w.member.token}` },
      });
      const line = exported.body
        .split('\n')
        .slice(1)
        .filter(Boolean)
        .map((text) => JSON.parse(text) as { id: string; occurredAt: string })
        .find((entry) => entry.id === dated.id);
      expect(line?.occurredAt).toBe('2022-02-02T02:02:02.000Z');
    });
  });

  describe('questions with dates', () => {
    let project: string;
    let agent: TestClient;

    beforeAll(async () => {
      // A project of its own, so the other tests' memories do not crowd these.
      const world = await memoryWorld(api);
      project = world.project;
      agent = world.agent;
      const at = (content: string, occurredAt: string, extra: Record<string, unknown> = {}) =>
        store(agent, project, { content, occurredAt, ...extra });
      await at('Repaired the bike and cleaned the garage', '2024-06-08T10:00:00Z');
      await at('Went hiking in the hills with Sam', '2024-06-01T10:00:00Z');
      await at('Visited the maritime museum', '2024-06-09T11:00:00Z');
      await at('The last deploy of the billing API failed on a migration', '2024-06-10T09:00:00Z');
      await at('Chose PostgreSQL as the billing database', '2023-05-14T12:00:00Z');
      await at('Chose Redis as the billing cache', '2024-01-10T12:00:00Z');
      await at('Billing API deployed to staging (build 2)', '2024-03-05T12:00:00Z');
      await at('Billing API deployed to staging (build 1)', '2024-01-05T12:00:00Z');
      await at('The team trip to Lisbon', '2024-05-20T08:00:00Z');
      await at('Decided to freeze the public API schema', '2024-05-06T12:00:00Z');
      await at('Decided to drop the legacy importer', '2024-02-01T12:00:00Z');
      // Another tenant's Saturday, and another project's: never part of these answers.
      const stranger = await memoryWorld(api);
      await store(stranger.agent, stranger.project, {
        content: 'Painted the fence',
        occurredAt: '2024-06-08T09:00:00Z',
      });
      await store(world.wideAgent, world.otherProject, {
        content: 'Fixed the boat engine',
        occurredAt: '2024-06-08T09:00:00Z',
      });
    });

    it('answers "what did I do last Saturday?" with last Saturday first, and explains the range', async () => {
      const found = await search({ query: 'what did I do last Saturday?', asOf: AS_OF, explain: true }, agent, project);
      expect(found.status).toBe(200);
      expect(contents(found)[0]).toBe('Repaired the bike and cleaned the garage');
      // The Sunday after is near; the distractor sharing the word "last" comes in only by its date. With the
      // whole question given to the rankers it came first (its "last" matched): a question of nothing but
      // dates ranks by date alone.
      expect(contents(found)).toEqual([
        'Repaired the bike and cleaned the garage',
        'Visited the maritime museum',
        'The last deploy of the billing API failed on a migration',
      ]);
      expect(found.body.report.temporal).toEqual({
        reference: '2024-06-10T15:00:00.000Z',
        rankedQuery: '',
        range: {
          expression: 'last Saturday',
          kind: 'relative',
          from: '2024-06-08T00:00:00.000Z',
          to: '2024-06-09T00:00:00.000Z',
          applied: 'boost',
          weight: 1,
        },
        notes: [],
      });
      expect(found.body.results[0].explain.temporal).toMatchObject({
        occurredAt: '2024-06-08T10:00:00.000Z',
        closeness: 1,
        order: 1,
      });
      expect(found.body.results[0].explain.temporal.added).toBeGreaterThan(0);
    });

    it("reads the caller's day from asOf's offset", async () => {
      // 01:00 on Sunday 9 June in Tokyo: "yesterday" is Tokyo's Saturday, 7 June 15:00 to 8 June 15:00 UTC.
      const found = await search({ query: 'yesterday', asOf: '2024-06-09T01:00:00+09:00' }, agent, project);
      expect(found.body.report.temporal.range).toMatchObject({
        from: '2024-06-07T15:00:00.000Z',
        to: '2024-06-08T15:00:00.000Z',
      });
      expect(contents(found)[0]).toBe('Repaired the bike and cleaned the garage');
    });

    it('filters by a clear calendar range, and falls back to a boost when nothing occurred in it', async () => {
      const may = await search({ query: 'what did we choose for billing in May 2023', asOf: AS_OF }, agent, project);
      expect(contents(may)).toEqual(['Chose PostgreSQL as the billing database']);
      expect(may.body.report.temporal).toMatchObject({
        rankedQuery: 'what did we choose for billing in May 2023',
        range: { expression: 'May 2023', applied: 'filter', from: '2023-05-01T00:00:00.000Z' },
      });
      const empty = await search({ query: 'what did we choose for billing in 2019', asOf: AS_OF }, agent, project);
      expect(contents(empty)).toEqual(
        expect.arrayContaining(['Chose PostgreSQL as the billing database', 'Chose Redis as the billing cache']),
      );
      expect(empty.body.report.temporal.range.applied).toBe('boost');
      expect(empty.body.report.temporal.notes[0]).toMatch(/no memory occurred in 2019/);
    });

    it('never drops a strong text match for a date guess: a boost only reorders', async () => {
      const found = await search({ query: 'Redis billing cache last Saturday', asOf: AS_OF }, agent, project);
      expect(contents(found)[0]).toBe('Chose Redis as the billing cache');
      expect(found.body.report.temporal.range.applied).toBe('boost');
    });

    it('puts the earliest first for "the first time"', async () => {
      const found = await search(
        { query: 'the first time the billing API was deployed to staging', asOf: AS_OF, explain: true },
        agent,
        project,
      );
      expect(contents(found).slice(0, 2)).toEqual([
        'Billing API deployed to staging (build 1)',
        'Billing API deployed to staging (build 2)',
      ]);
      expect(found.body.report.temporal.order).toEqual({ expression: 'the first time', direction: 'earliest' });
      expect(found.body.results[0].explain.temporal.order).toBeGreaterThan(
        found.body.results[1].explain.temporal.order,
      );
      const latest = await search({ query: 'latest billing API deploy to staging', asOf: AS_OF }, agent, project);
      expect(contents(latest)[0]).toBe('Billing API deployed to staging (build 2)');
    });

    it('places "two weeks before the trip" by the memory of the trip', async () => {
      const found = await search(
        { query: 'what did we decide two weeks before the trip', asOf: AS_OF, explain: true },
        agent,
        project,
      );
      expect(contents(found)[0]).toBe('Decided to freeze the public API schema');
      expect(found.body.report.temporal.range).toMatchObject({
        expression: 'two weeks before the trip',
        kind: 'anchored',
        applied: 'boost',
      });
      expect(found.body.report.temporal.notes[0]).toMatch(/placed "the trip" at 2024-05-20T08:00:00.000Z/);
    });

    it('makes one call into search per recall: the anchor, the filter and its fallback happen within it', async () => {
      const hybrid = api.app.get(HybridSearch);
      const calls = [jest.spyOn(hybrid, 'rank'), jest.spyOn(hybrid, 'rankDated')];
      const counted = async (query: string) => {
        for (const spy of calls) spy.mockClear();
        const found = await search({ query, asOf: AS_OF }, agent, project);
        expect(found.status).toBe(200);
        return { found, calls: calls.map((spy) => spy.mock.calls.length) };
      };
      try {
        // Placed by the trip's memory, then ranked: one rankDated.
        const anchored = await counted('what did we decide two weeks before the trip');
        expect(anchored.found.body.report.temporal.notes[0]).toMatch(/placed "the trip"/);
        expect(anchored.calls).toEqual([0, 1]);
        // Filtered to 2019, nothing there, ranked again as a boost: still one.
        const relaxed = await counted('what did we choose for billing in 2019');
        expect(relaxed.found.body.report.temporal.range.applied).toBe('boost');
        expect(relaxed.calls).toEqual([0, 1]);
        // No dates: one rank.
        expect((await counted('billing cache')).calls).toEqual([1, 0]);
      } finally {
        for (const spy of calls) spy.mockRestore();
      }
    });

    it('keeps the date words in the text the rankers get: they are often what tells memories apart', async () => {
      const world = await memoryWorld(api);
      await store(world.agent, world.project, {
        content: 'Moved the Friday standup to 9am',
        occurredAt: '2024-06-04T09:00:00Z',
      });
      await store(world.agent, world.project, {
        content: 'Moved the Wednesday standup to 10am',
        occurredAt: '2024-06-04T09:00:00Z',
      });
      const query = 'what did we change about the Wednesday standup last week?';
      const found = await search({ query, asOf: AS_OF }, world.agent, world.project);
      expect(found.status).toBe(200);
      expect(contents(found)[0]).toBe('Moved the Wednesday standup to 10am');
      expect(found.body.report.temporal).toMatchObject({ rankedQuery: query, range: { expression: 'last week' } });
    });

    it('leaves questions without dates exactly as before', async () => {
      const found = await search({ query: 'billing database', mode: 'keyword', explain: true }, agent, project);
      expect(contents(found)[0]).toBe('Chose PostgreSQL as the billing database');
      expect(found.body.report.temporal).toBeUndefined();
      expect(found.body.results[0].explain.temporal).toBeUndefined();
    });

    it('stays within the tenant and the project, and across projects within the token', async () => {
      const found = await search({ query: 'what did I do last Saturday?', asOf: AS_OF }, agent, project);
      expect(contents(found)).not.toContain('Painted the fence');
      expect(contents(found)).not.toContain('Fixed the boat engine');
    });

    it.each([
      [{ asOf: 'last week' }, /asOf: must be an ISO 8601 date-time with a time zone/],
      [{ asOf: '2024-06-10T15:00:00' }, /asOf: must be an ISO 8601 date-time with a time zone/],
      [{ asOf: '2999-06-10T15:00:00Z' }, /asOf: must not be more than a day in the future/],
    ])('refuses %p with a clear 400', async (body, message) => {
      const response = await search({ query: 'anything', ...body }, agent, project);
      expect(response.status).toBe(400);
      expect(JSON.stringify(response.body.error)).toMatch(message);
    });
  });
});
