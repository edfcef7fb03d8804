import { createHash, randomUUID } from 'node:crypto';
import { createProject, createTenant, issueToken, type TenantFixture, type TestClient } from '@cairn/testing';
import { type ApiHarness, startApi } from './api-harness';

/** Working memory (remember / forget / list, eviction at the cap), session events and summaries. */
describe('working memory, session events and summaries', () => {
  let api: ApiHarness;
  let tenant: TenantFixture;
  let projectA: string;
  let projectB: string;

  beforeAll(async () => {
    // A small cap so eviction is reached in a few writes.
    api = await startApi({ WORKING_MEMORY_CAP: '5' });
    tenant = await createTenant(api.admin);
    projectA = (await createProject(api.admin, tenant.slug)).slug;
    projectB = (await createProject(api.admin, tenant.slug)).slug;
  });
  afterAll(() => api.close());

  let agents = 0;
  /** A client with a fresh agent token (its own working memory), scoped to project A unless told. */
  async function agent(role = 'agent', projects: '*' | string[] = [projectA]): Promise<TestClient> {
    agents += 1;
    const { token } = await issueToken(api.admin, tenant.slug, { role, projects, agentId: `test-agent:${agents}` });
    return api.client.as(token);
  }

  const wm = (project = projectA) => `/v1/projects/${project}/working-memory`;
  const entry = (key: string, project = projectA) => `${wm(project)}/${encodeURIComponent(key)}`;
  const put = (client: TestClient, key: string, body: unknown, project = projectA) =>
    client.request('PUT', entry(key, project), body);

  describe('remember, list, forget', () => {
    it('creates, replaces, lists and forgets entries', async () => {
      const client = await agent();
      const created = await put(client, 'current_task', { value: 'Migrate the billing service to Postgres 16' });
      expect(created.status).toBe(200);
      expect(created.body).toEqual({
        entry: {
          key: 'current_task',
          value: 'Migrate the billing service to Postgres 16',
          importance: 3,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
        evicted: [],
        redacted: [],
      });

      const replaced = await put(client, 'current_task', { value: 'Billing migration: step 2 of 4', importance: 5 });
      expect(replaced.status).toBe(200);
      expect(replaced.body.entry).toMatchObject({ value: 'Billing migration: step 2 of 4', importance: 5 });
      expect(replaced.body.entry.createdAt).toBe(created.body.entry.createdAt);
      expect(Date.parse(replaced.body.entry.updatedAt)).toBeGreaterThanOrEqual(
        Date.parse(created.body.entry.updatedAt),
      );

      await put(client, 'note', { value: 'tests are slow', importance: 1 });
      const listed = await client.get(wm());
      expect(listed.status).toBe(200);
      expect(listed.body.cap).toBe(5);
      expect(listed.body.items.map((item: { key: string }) => item.key)).toEqual(['current_task', 'note']);

      const forgotten = await client.delete(entry('note'));
      expect(forgotten.status).toBe(204);
      const again = await client.delete(entry('note'));
      expect(again.status).toBe(404);
      expect(again.body).toMatchObject({ error: { code: 'not_found' }, correlationId: expect.any(String) });
      expect((await client.get(wm())).body.items).toHaveLength(1);
    });

    it('accepts keys with . _ : / - (slashes URL-encoded) and cleans control characters from values', async () => {
      const client = await agent();
      const key = 'deploy/target:prod.v2_eu-west';
      const stored = await put(client, key, { value: '  line one\nline two\u0007\u0000  ' });
      expect(stored.status).toBe(200);
      expect(stored.body.entry).toMatchObject({ key, value: 'line one\nline two' });
      expect((await client.get(wm())).body.items[0]).toMatchObject({ key });
      expect((await client.delete(entry(key))).status).toBe(204);
    });

    it('keeps each agent’s working memory private', async () => {
      const alice = await agent();
      const bob = await agent();
      await put(alice, 'plan', { value: 'alice: refactor the auth module', importance: 5 });
      await put(bob, 'plan', { value: 'bob: write the release notes' });

      expect((await alice.get(wm())).body.items).toEqual([
        expect.objectContaining({ key: 'plan', value: 'alice: refactor the auth module' }),
      ]);
      expect((await bob.get(wm())).body.items).toEqual([
        expect.objectContaining({ key: 'plan', value: 'bob: write the release notes' }),
      ]);
      await put(bob, 'only-bob', { value: 'x' });
      expect((await alice.delete(entry('only-bob'))).status).toBe(404);
      expect((await bob.delete(entry('plan'))).status).toBe(204);
      expect((await alice.get(wm())).body.items).toHaveLength(1);
    });
  });

  describe('eviction at the cap', () => {
    it('moves the least important, oldest entries into long-term memory and says so', async () => {
      const client = await agent();
      const seed: [string, string, number][] = [
        ['build-cmd', 'Build the frontend with pnpm turbo build', 3],
        ['flaky-test', 'The payments integration test is flaky on Mondays because of the cron reset', 1],
        ['lint-note', 'ESLint warnings about unused imports can wait until the refactor lands', 1],
        ['architecture', 'Orders flow through the outbox table into Kafka', 5],
        ['review', 'Ask Dana to review the schema change', 4],
      ];
      for (const [key, value, importance] of seed) {
        const response = await put(client, key, { value, importance });
        expect(response.status).toBe(200);
        expect(response.body.evicted).toEqual([]);
      }

      // Replacing an entry at the cap adds nothing, so nothing moves.
      const replaced = await put(client, 'build-cmd', { value: 'Build the frontend with pnpm turbo run build' });
      expect(replaced.body.evicted).toEqual([]);

      // A sixth entry: the oldest of the two importance-1 entries goes.
      const sixth = await put(client, 'branch', { value: 'Work happens on feature/outbox-retry' });
      expect(sixth.status).toBe(200);
      expect(sixth.body.evicted).toEqual([{ key: 'flaky-test', memoryId: expect.any(String) }]);
      const keys = (await client.get(wm())).body.items.map((item: { key: string }) => item.key);
      expect(keys).toHaveLength(5);
      expect(keys).not.toContain('flaky-test');

      const memory = await client.get(`/v1/projects/${projectA}/memories/${sixth.body.evicted[0].memoryId}`);
      expect(memory.status).toBe(200);
      expect(memory.body).toMatchObject({
        content: 'flaky-test: The payments integration test is flaky on Mondays because of the cron reset',
        importance: 1,
        tags: ['working-memory', 'evicted'],
        keywords: ['flaky-test'],
        project: projectA,
      });

      const found = await client.post(`/v1/projects/${projectA}/memories/search`, {
        query: 'why is the payments integration test flaky',
      });
      expect(found.status).toBe(200);
      expect(found.body.results.map((hit: { memory: { id: string } }) => hit.memory.id)).toContain(
        sixth.body.evicted[0].memoryId,
      );

      // The entry just written is never the one evicted, even when it is the least important.
      const seventh = await put(client, 'scratch', { value: 'tmp: check the retry header', importance: 1 });
      expect(seventh.body.evicted).toEqual([{ key: 'lint-note', memoryId: expect.any(String) }]);
      const eighth = await put(client, 'scratch-2', { value: 'tmp: second scratch note', importance: 1 });
      expect(eighth.body.evicted).toEqual([{ key: 'scratch', memoryId: expect.any(String) }]);
      expect((await client.get(wm())).body.items.map((item: { key: string }) => item.key).sort()).toEqual(
        ['architecture', 'branch', 'build-cmd', 'review', 'scratch-2'].sort(),
      );
    });

    it("evicts into the scope the agent's own stores get: private when the tenant says agents default to it", async () => {
      const settings = `/v1/tenants/${tenant.slug}/settings`;
      expect((await api.admin.patch(settings, { agentDefaultScope: 'private' })).status).toBe(200);
      try {
        const owner = await agent();
        for (let i = 0; i < 6; i += 1)
          await put(owner, `note-${i}`, { value: `private working note ${i}`, importance: 1 });
        expect((await owner.get(wm())).body.items).toHaveLength(5);
        const listed = await owner.get(`/v1/projects/${projectA}/memories?tags=evicted&limit=100`);
        const mine = listed.body.items.filter((item: { content: string }) =>
          item.content.includes('private working note'),
        );
        expect(mine).toEqual([
          expect.objectContaining({ scope: 'private', content: 'note-0: private working note 0' }),
        ]);
        // Another agent of the project does not see it.
        const other = await agent();
        expect((await other.get(`/v1/projects/${projectA}/memories/${mine[0].id}`)).status).toBe(404);
      } finally {
        await api.admin.patch(settings, { agentDefaultScope: 'project' });
      }
    });

    it('evicts only from the writing agent’s own entries', async () => {
      const full = await agent();
      for (let i = 0; i < 5; i += 1) await put(full, `k${i}`, { value: `value ${i}`, importance: 1 });
      const other = await agent();
      for (let i = 0; i < 5; i += 1) {
        expect((await put(other, `o${i}`, { value: `other ${i}` })).body.evicted).toEqual([]);
      }
      expect((await full.get(wm())).body.items).toHaveLength(5);
    });
  });

  describe('session events', () => {
    it('records every kind and lists them newest first, for every agent of the project', async () => {
      const alice = await agent();
      const bob = await agent();
      const kinds = ['session_start', 'file_written', 'error', 'decision', 'custom', 'session_end'];
      const recorded: string[] = [];
      for (const [index, kind] of kinds.entries()) {
        const client = index % 2 === 0 ? alice : bob;
        const response = await client.post(`/v1/projects/${projectA}/events`, {
          kind,
          summary: `${kind} happened`,
          ...(kind === 'file_written' ? { details: { path: 'src/app.ts', lines: 42, nested: { ok: true } } } : {}),
        });
        expect(response.status).toBe(201);
        expect(response.body).toMatchObject({
          kind,
          summary: `${kind} happened`,
          agent: expect.stringMatching(/^agent:/),
        });
        recorded.push(response.body.id);
      }
      const listed = await alice.get(`/v1/projects/${projectA}/events?limit=6`);
      expect(listed.status).toBe(200);
      expect(listed.body.items.map((event: { id: string }) => event.id)).toEqual([...recorded].reverse());
      const written = listed.body.items.find((event: { kind: string }) => event.kind === 'file_written');
      expect(written.details).toEqual({ path: 'src/app.ts', lines: 42, nested: { ok: true } });
      expect(new Set(listed.body.items.map((event: { agent: string }) => event.agent)).size).toBe(2);

      const decisions = await bob.get(`/v1/projects/${projectA}/events?kind=decision`);
      expect(decisions.body.items.every((event: { kind: string }) => event.kind === 'decision')).toBe(true);
      const third = listed.body.items[3];
      const since = await bob.get(`/v1/projects/${projectA}/events?since=${encodeURIComponent(third.createdAt)}`);
      expect(since.body.items.map((event: { id: string }) => event.id)).toEqual(recorded.slice(3).reverse());
    });

    it('pages back through the events by cursor, every event once', async () => {
      const client = await agent();
      for (let i = 0; i < 5; i += 1) {
        expect(
          (await client.post(`/v1/projects/${projectA}/events`, { kind: 'custom', summary: `paged ${i}` })).status,
        ).toBe(201);
      }
      const all = await client.get(`/v1/projects/${projectA}/events?limit=200`);
      expect(all.body.nextCursor).toBeNull();
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor ? `&cursor=${cursor}` : '';
        const page = await client.get(`/v1/projects/${projectA}/events?limit=2${query}`);
        expect(page.status).toBe(200);
        expect(page.body.items.length).toBeLessThanOrEqual(2);
        paged.push(...page.body.items.map((event: { id: string }) => event.id));
        cursor = page.body.nextCursor;
      } while (cursor);
      expect(paged).toEqual(all.body.items.map((event: { id: string }) => event.id));
      // A cursor naming no event of the project ends the listing instead of starting it again.
      const stale = await client.get(`/v1/projects/${projectA}/events?cursor=${randomUUID()}`);
      expect(stale.body).toEqual({ items: [], nextCursor: null });
    });

    it('strips control characters from the summary and from every string in details', async () => {
      const client = await agent();
      const response = await client.post(`/v1/projects/${projectA}/events`, {
        kind: 'error',
        summary: 'Build\u0000 failed\nat step 3',
        details: { 'log\u0000': ['a\u0000b', { deep: 'c\u0007d' }] },
      });
      expect(response.status).toBe(201);
      expect(response.body.summary).toBe('Build failed at step 3');
      expect(response.body.details).toEqual({ log: ['ab', { deep: 'cd' }] });
    });
  });

  describe('session summary', () => {
    it('archives the summary in the knowledge base and keeps it as last_session_summary', async () => {
      const client = await agent();
      const text = 'Moved billing to the outbox pattern; retries still open. Next: load test the consumer.';
      const response = await client.post(`/v1/projects/${projectA}/session/summary`, { text });
      expect(response.status).toBe(201);
      expect(response.body.entry).toMatchObject({ key: 'last_session_summary', value: text, importance: 4 });
      expect(response.body.evicted).toEqual([]);
      const days = (Date.parse(response.body.document.expiresAt) - Date.now()) / 86_400_000;
      expect(days).toBeGreaterThan(364);
      expect(days).toBeLessThan(366);

      const documents = await client.get(`/v1/projects/${projectA}/kb/documents`);
      expect(documents.status).toBe(200);
      expect(documents.body.items).toContainEqual(
        expect.objectContaining({ id: response.body.document.id, retentionTier: 'summary', sourceType: 'internal' }),
      );
      const search = await client.post(`/v1/projects/${projectA}/kb/search`, { query: 'outbox retries load test' });
      expect(search.body.results.map((hit: { documentId: string }) => hit.documentId)).toContain(
        response.body.document.id,
      );
      expect((await client.get(wm())).body.items).toContainEqual(
        expect.objectContaining({ key: 'last_session_summary', value: text }),
      );
    });

    it('keeps a long summary whole in the archive and its beginning in working memory', async () => {
      const client = await agent();
      const text = Array.from({ length: 400 }, (_, i) => `Step ${i}: changed module ${i}.`).join(' ');
      expect(text.length).toBeGreaterThan(4_000);
      const response = await client.post(`/v1/projects/${projectA}/session/summary`, { text });
      expect(response.status).toBe(201);
      const value: string = response.body.entry.value;
      expect(value.length).toBeLessThanOrEqual(4_000);
      expect(value.startsWith('Step 0: changed module 0.')).toBe(true);
      expect(value).toContain(response.body.document.id);
      // A second summary is a document of its own, not a replacement of the first.
      const second = await client.post(`/v1/projects/${projectA}/session/summary`, { text: 'Short follow-up.' });
      expect(second.body.document.id).not.toBe(response.body.document.id);
      const ids = (await client.get(`/v1/projects/${projectA}/kb/documents`)).body.items.map(
        (d: { id: string }) => d.id,
      );
      expect(ids).toEqual(expect.arrayContaining([response.body.document.id, second.body.document.id]));
    });

    it('archives a summary once however often it is sent with the same idempotency key', async () => {
      const client = await agent();
      const text = 'Replayed summary: the refund consumer is idempotent now; next: drop the legacy table.';
      const send = (key: string) =>
        client.post(`/v1/projects/${projectA}/session/summary`, { text, idempotencyKey: key });
      const first = await send('hook-replay-1');
      expect(first.status).toBe(201);
      // A client whose first answer was lost sends it again, maybe twice at once.
      const repeats = await Promise.all([send('hook-replay-1'), send('hook-replay-1')]);
      for (const repeat of repeats) {
        expect(repeat.status).toBe(201);
        expect(repeat.body.document.id).toBe(first.body.document.id);
      }
      const other = await send('hook-replay-2');
      expect(other.body.document.id).not.toBe(first.body.document.id);
      // The source names the key by its digest (keys are stored only as digests), never the key itself.
      const digests = ['hook-replay-1', 'hook-replay-2'].map((key) =>
        createHash('sha256').update(key).digest('hex').slice(0, 32),
      );
      const items = (await client.get(`/v1/projects/${projectA}/kb/documents?limit=200`)).body.items as {
        source: string;
      }[];
      expect(items.some((document) => document.source.includes('hook-replay'))).toBe(false);
      const archived = items.filter((document) => digests.some((digest) => document.source.endsWith(`:${digest}`)));
      expect(archived).toHaveLength(2);
      expect((await client.get(wm())).body.items).toContainEqual(
        expect.objectContaining({ key: 'last_session_summary', value: text }),
      );
      const bad = await client.post(`/v1/projects/${projectA}/session/summary`, { text, idempotencyKey: 'has space' });
      expect(bad.status).toBe(400);
    });
  });

  describe('permissions and scope', () => {
    it('lets a reader read events and the briefing, and nothing else', async () => {
      const reader = await agent('reader');
      expect((await put(reader, 'k', { value: 'v' })).status).toBe(403);
      expect((await reader.delete(entry('k'))).status).toBe(403);
      expect((await reader.get(wm())).status).toBe(403);
      const event = await reader.post(`/v1/projects/${projectA}/events`, { kind: 'custom', summary: 'x' });
      expect(event.status).toBe(403);
      expect(event.body.error.code).toBe('insufficient_role');
      expect((await reader.post(`/v1/projects/${projectA}/session/summary`, { text: 'x' })).status).toBe(403);
      expect((await reader.get(`/v1/projects/${projectA}/events`)).status).toBe(200);
      expect((await reader.post(`/v1/projects/${projectA}/context`, {})).status).toBe(200);
    });

    it('refuses every route on a project outside the token scope', async () => {
      const onlyA = await agent('agent', [projectA]);
      const calls = [
        () => onlyA.get(wm(projectB)),
        () => put(onlyA, 'k', { value: 'v' }, projectB),
        () => onlyA.delete(entry('k', projectB)),
        () => onlyA.post(`/v1/projects/${projectB}/events`, { kind: 'custom', summary: 'x' }),
        () => onlyA.get(`/v1/projects/${projectB}/events`),
        () => onlyA.post(`/v1/projects/${projectB}/session/summary`, { text: 'x' }),
        () => onlyA.post(`/v1/projects/${projectB}/context`, {}),
      ];
      for (const call of calls) {
        const response = await call();
        expect(response.status).toBe(403);
        expect(response.body.error.code).toBe('project_forbidden');
      }
    });

    it('answers 401 without a token and 404 for an unknown project', async () => {
      expect((await api.client.get(wm())).status).toBe(401);
      const client = await agent('agent', '*');
      const missing = await client.get(wm('no-such-project'));
      expect(missing.status).toBe(404);
    });
  });

  it('documents every route in OpenAPI', async () => {
    const document = await api.client.get('/docs/json');
    expect(document.status).toBe(200);
    const paths = document.body.paths;
    const base = '/v1/projects/{project}';
    expect(Object.keys(paths[`${base}/working-memory`])).toEqual(['get']);
    expect(Object.keys(paths[`${base}/working-memory/{key}`]).sort()).toEqual(['delete', 'put']);
    expect(Object.keys(paths[`${base}/events`]).sort()).toEqual(['get', 'post']);
    expect(Object.keys(paths[`${base}/context`])).toEqual(['post']);
    expect(Object.keys(paths[`${base}/session/summary`])).toEqual(['post']);
    const schemas = document.body.components.schemas;
    expect(Object.keys(schemas.RememberDto.properties).sort()).toEqual(['importance', 'value']);
    expect(schemas.BriefingDto_Output.properties).toHaveProperty('timeAnchor');
    expect(schemas.BriefingRequestDto.properties).toHaveProperty('timezone');
    expect(schemas.RecordSessionEventDto.properties.kind.enum).toContain('file_written');
  });

  describe('bad input', () => {
    let client: TestClient;
    beforeAll(async () => {
      client = await agent();
    });

    const expectValidationError = (response: { status: number; body: any }, context: unknown) => {
      expect({ context, status: response.status }).toEqual({ context, status: 400 });
      expect(response.body.error.code).toMatch(/^(validation_failed|invalid_json|bad_request)$/);
      expect(response.body.correlationId).toEqual(expect.any(String));
      expect(JSON.stringify(response.body)).not.toMatch(/node_modules|\.ts:|at [A-Z]\w+\./);
    };

    it('rejects bad keys on PUT and DELETE', async () => {
      // Keys may be 128 characters, but Fastify caps a path parameter at 100 (maxParamLength, see the
      // report): the 101-128 range is covered by the key schema's unit spec until the server raises it.
      expect((await put(client, 'k'.repeat(100), { value: 'v' })).status).toBe(200);
      expect((await client.delete(entry('k'.repeat(100)))).status).toBe(204);
      for (const key of ['has space', 'ümlaut', 'semi;colon', "quote'", 'a%00b', 'tab\tkey', '*']) {
        expectValidationError(await put(client, key, { value: 'v' }), key);
        expectValidationError(await client.delete(entry(key)), key);
      }
    });

    it('rejects bad values, importances, unknown fields and non-object bodies on PUT', async () => {
      const bodies: unknown[] = [
        { value: 'v'.repeat(4_001) },
        { value: '' },
        { value: '   \u0001\u0002  ' },
        { value: 42 },
        { value: null },
        {},
        { value: 'v', importance: 0 },
        { value: 'v', importance: 6 },
        { value: 'v', importance: 2.5 },
        { value: 'v', importance: '3' },
        { value: 'v', key: 'other' },
        { value: 'v', isAdmin: true },
        [],
        '"text"',
        '{bad json',
      ];
      for (const body of bodies) expectValidationError(await put(client, 'valid-key', body), body);
      expectValidationError(await client.request('PUT', entry('valid-key')), 'no body');
      expect((await client.get(wm())).body.items).toEqual([]);
    });

    it('rejects bad events', async () => {
      let deep: Record<string, unknown> = {};
      for (let i = 0; i < 20; i += 1) deep = { next: deep };
      const bodies: unknown[] = [
        { kind: 'bogus', summary: 'x' },
        { kind: 'DECISION', summary: 'x' },
        { summary: 'x' },
        { kind: 'decision' },
        { kind: 'decision', summary: '' },
        { kind: 'decision', summary: 's'.repeat(501) },
        { kind: 'decision', summary: 'x', details: ['array'] },
        { kind: 'decision', summary: 'x', details: 'text' },
        { kind: 'decision', summary: 'x', details: { blob: 'b'.repeat(8_200) } },
        { kind: 'decision', summary: 'x', details: deep },
        { kind: 'decision', summary: 'x', agent: 'someone-else' },
        '[]',
      ];
      for (const body of bodies)
        expectValidationError(await client.post(`/v1/projects/${projectA}/events`, body), body);
      for (const query of [
        'limit=0',
        'limit=201',
        'limit=abc',
        'since=yesterday',
        'kind=bogus',
        'unknown=1',
        'cursor=nope',
      ]) {
        expectValidationError(await client.get(`/v1/projects/${projectA}/events?${query}`), query);
      }
    });

    it('rejects bad summaries', async () => {
      const url = `/v1/projects/${projectA}/session/summary`;
      for (const body of [
        { text: '' },
        { text: '\u0000' },
        { text: 't'.repeat(20_001) },
        { text: 5 },
        { text: 'x', title: 'y' },
        {},
      ]) {
        expectValidationError(await client.post(url, body), body);
      }
    });

    it('rejects bad project slugs in the path', async () => {
      for (const slug of ['UPPER', 'ab', encodeURIComponent("x'); DROP TABLE projects; --")]) {
        const response = await client.get(`/v1/projects/${slug}/working-memory`);
        expect([400, 403]).toContain(response.status);
        expect(response.status).not.toBe(500);
      }
    });
  });
});
