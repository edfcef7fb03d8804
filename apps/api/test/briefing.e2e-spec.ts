import { createProject, createTenant, issueToken, type TenantFixture, type TestClient } from '@cairn/testing';
import { DataSource } from 'typeorm';
import { type ApiHarness, startApi } from './api-harness';

/** The session briefing (`POST …/context`, recall_context). */
describe('session briefing', () => {
  let api: ApiHarness;
  let tenant: TenantFixture;

  beforeAll(async () => {
    // The briefing's count of memories still waiting for a vector is under test: the queue, not
    // inline embedding (which would leave none waiting), gives them theirs here.
    api = await startApi({ EMBEDDING_INLINE: 'false' });
    tenant = await createTenant(api.admin);
  });
  afterAll(() => api.close());

  let agents = 0;
  async function agent(project: string, role = 'agent'): Promise<{ client: TestClient; agentId: string }> {
    agents += 1;
    const agentId = `briefing-agent:${agents}`;
    const { token } = await issueToken(api.admin, tenant.slug, { role, projects: [project], agentId });
    return { client: api.client.as(token), agentId };
  }
  const newProject = async () => (await createProject(api.admin, tenant.slug)).slug;
  const context = (client: TestClient, project: string, body: unknown = {}) =>
    client.post(`/v1/projects/${project}/context`, body);
  const remember = (client: TestClient, project: string, key: string, value: string, importance: number) =>
    client.request('PUT', `/v1/projects/${project}/working-memory/${key}`, { value, importance });
  const storeMemory = async (client: TestClient, project: string, content: string, importance = 3) => {
    const response = await client.post(`/v1/projects/${project}/memories`, { content, importance });
    expect(response.status).toBe(201);
    return response.body.memory.id as string;
  };
  const recordEvent = async (client: TestClient, project: string, kind: string, summary: string) => {
    const response = await client.post(`/v1/projects/${project}/events`, { kind, summary });
    expect(response.status).toBe(201);
    return response.body.id as string;
  };
  const sql = (query: string, params: unknown[] = []) =>
    api.app.get(DataSource).query(query.replaceAll('$schema', `"${tenant.schema}"`), params);
  const keys = (items: { key: string }[]) => items.map((item) => item.key);

  it('groups working memory by importance and reports system status on a first visit', async () => {
    const project = await newProject();
    const { client, agentId } = await agent(project);
    await remember(client, project, 'architecture', 'Orders go through the outbox into Kafka', 5);
    await remember(client, project, 'current-task', 'Add retries to the outbox consumer', 4);
    await remember(client, project, 'notes', 'Consumer lag dashboard is in Grafana', 3);
    await remember(client, project, 'tmp', 'Try a smaller batch size', 2);
    await remember(client, project, 'scratch', 'grep for TODO(outbox)', 1);
    await remember(client, project, 'deadline', 'Ship before the Friday freeze', 5);
    await storeMemory(client, project, 'The outbox relay polls every 500 ms');
    await storeMemory(client, project, 'Kafka topics are created by Terraform, never by the app');

    const response = await context(client, project);
    expect(response.status).toBe(200);
    const briefing = response.body;
    expect(briefing.project).toBe(project);
    expect(briefing.agent).toBe(`agent:${agentId}`);
    expect(keys(briefing.workingMemory.critical)).toEqual(['deadline', 'architecture', 'current-task']);
    expect(keys(briefing.workingMemory.normal)).toEqual(['notes']);
    expect(keys(briefing.workingMemory.ephemeral)).toEqual(['tmp', 'scratch']);
    expect(briefing.workingMemory).toMatchObject({ total: 6, cap: 100 });
    expect(briefing.timeAnchor).toMatchObject({
      timezone: 'UTC',
      utcOffset: '+00:00',
      lastSeenAt: null,
      lastSeenSource: null,
      gap: null,
      gapSeconds: null,
      since: null,
    });
    expect(Math.abs(Date.parse(briefing.timeAnchor.now) - Date.now())).toBeLessThan(60_000);
    expect(briefing.status).toEqual({
      searchMode: 'hybrid',
      embeddingModel: { id: 'cairn-hash-v1', provider: 'hash', dimensions: 384, builtIn: true },
      pendingEmbeddingJobs: expect.any(Number),
      memoriesWithoutVector: 2,
      notes: expect.arrayContaining([expect.stringContaining('built-in hash embedder')]),
    });
    expect(briefing.truncated).toEqual({});
    expect(briefing.budget.limit).toBe(2000);
    expect(briefing.budget.used).toBeLessThanOrEqual(2000);
    expect(briefing.text).toContain('First visit to this project');
    expect(briefing.text).toContain('## Working memory: critical (4-5)\n- deadline (5): Ship before the Friday freeze');
    expect(briefing.text).toContain('Search: hybrid; embedding model: cairn-hash-v1 (hash, built-in)');
  });

  it('anchors the time in the requested IANA zone', async () => {
    const project = await newProject();
    const { client } = await agent(project);
    const response = await context(client, project, { timezone: 'Asia/Tokyo' });
    expect(response.status).toBe(200);
    const anchor = response.body.timeAnchor;
    expect(anchor).toMatchObject({ timezone: 'Asia/Tokyo', utcOffset: '+09:00' });
    expect(anchor.local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+09:00$/);
    // The same instant, written in Tokyo's wall-clock time.
    expect(Date.parse(anchor.local)).toBe(Math.floor(Date.parse(anchor.now) / 1000) * 1000);
    const tokyoHour = (new Date(anchor.now).getUTCHours() + 9) % 24;
    expect(Number(anchor.local.slice(11, 13))).toBe(tokyoHour);
    expect(response.body.text).toContain('(Asia/Tokyo, UTC+09:00)');

    for (const timezone of ['America/New_York', 'Etc/GMT+5', 'utc', 'Asia/Kolkata']) {
      expect((await context(client, project, { timezone })).status).toBe(200);
    }
  });

  it('reports the gap and what was added since the agent was last here, then records the visit', async () => {
    const project = await newProject();
    const alice = await agent(project);
    const bob = await agent(project);
    expect((await context(alice.client, project)).body.timeAnchor.lastSeenAt).toBeNull();

    const old = await storeMemory(bob.client, project, 'Legacy cron jobs run on the old VM', 2);
    const important = await storeMemory(bob.client, project, 'The payments API now requires idempotency keys', 5);
    const normal = await storeMemory(bob.client, project, 'Staging is reset every night at 02:00 UTC', 3);
    const oldEvent = await recordEvent(bob.client, project, 'decision', 'Use Postgres advisory locks for the relay');
    const newEvent = await recordEvent(bob.client, project, 'file_written', 'src/outbox/relay.ts');
    // Alice was last here 3 days, 4 hours and 5 minutes ago; one memory and one event are older than that.
    await sql(
      `UPDATE $schema.agent_sessions SET last_seen_at = now() - interval '3 days 4 hours 5 minutes'
       WHERE agent_key = $1 AND project_id = (SELECT id FROM $schema.projects WHERE slug = $2)`,
      [`agent:${alice.agentId}`, project],
    );
    await sql(`UPDATE $schema.memories SET created_at = now() - interval '4 days' WHERE id = $1`, [old]);
    await sql(`UPDATE $schema.session_events SET created_at = now() - interval '4 days' WHERE id = $1`, [oldEvent]);

    const second = (await context(alice.client, project)).body;
    expect(second.timeAnchor).toMatchObject({
      lastSeenSource: 'agent',
      gap: '3 days, 4 hours',
      since: { memories: 2, events: 1 },
    });
    expect(second.timeAnchor.gapSeconds).toBeGreaterThanOrEqual(3 * 86_400 + 4 * 3_600 + 5 * 60);
    expect(second.timeAnchor.gapSeconds).toBeLessThan(3 * 86_400 + 4 * 3_600 + 7 * 60);
    expect(second.newMemories.map((memory: { id: string }) => memory.id)).toEqual([important, normal]);
    expect(second.newMemories[0]).toMatchObject({
      content: 'The payments API now requires idempotency keys',
      importance: 5,
      agentId: bob.agentId,
    });
    const flags = Object.fromEntries(
      second.recentEvents.map((event: { id: string; new: boolean }) => [event.id, event.new]),
    );
    expect(flags).toEqual({ [newEvent]: true, [oldEvent]: false });
    expect(second.text).toContain('(3 days, 4 hours ago); since then 2 new memories, 1 events');
    expect(second.text).toContain('The payments API now requires idempotency keys');

    // The visit was recorded: straight away, nothing is new.
    const third = (await context(alice.client, project)).body;
    expect(third.timeAnchor).toMatchObject({
      lastSeenAt: second.timeAnchor.now,
      gap: 'less than a minute',
      since: { memories: 0, events: 0 },
    });
    expect(third.newMemories).toEqual([]);

    // An agent that was never here measures from the project's last visit.
    const carol = await agent(project);
    expect((await context(carol.client, project)).body.timeAnchor).toMatchObject({
      lastSeenSource: 'project',
      lastSeenAt: third.timeAnchor.now,
    });
    const projects = await api.admin.get(`/v1/tenants/${tenant.slug}/projects`);
    const listed = projects.body.items.find((item: { slug: string }) => item.slug === project);
    expect(Date.parse(listed.lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(third.timeAnchor.now));
  });

  describe('token budget', () => {
    let project: string;
    let client: TestClient;
    const summary = `Session summary: ${'we refactored the outbox relay and measured consumer lag. '.repeat(17)}`;

    beforeAll(async () => {
      project = await newProject();
      client = (await agent(project)).client;
      for (let i = 0; i < 3; i += 1) await remember(client, project, `critical-${i}`, `critical ${i} `.repeat(20), 5);
      for (let i = 0; i < 10; i += 1) await remember(client, project, `normal-${i}`, `normal ${i} `.repeat(45), 3);
      for (let i = 0; i < 10; i += 1) await remember(client, project, `ephemeral-${i}`, `eph ${i} `.repeat(100), 1);
      for (let i = 0; i < 5; i += 1) await recordEvent(client, project, 'file_written', `src/file-${i}.ts`);
      expect((await client.post(`/v1/projects/${project}/session/summary`, { text: summary })).status).toBe(201);
    });

    /** Shown plus left out is everything, for each list section. */
    const expectAccounted = (briefing: any) => {
      const t = briefing.truncated;
      expect(briefing.workingMemory.critical.length + (t['workingMemory.critical'] ?? 0)).toBe(3);
      expect(briefing.workingMemory.normal.length + (t['workingMemory.normal'] ?? 0)).toBe(10);
      expect(briefing.workingMemory.ephemeral.length + (t['workingMemory.ephemeral'] ?? 0)).toBe(10);
      expect(briefing.recentEvents.length + (t.recentEvents ?? 0)).toBe(5);
    };

    it('keeps only the time anchor in the smallest budget and says what it left out', async () => {
      const response = await context(client, project, { budgetTokens: 100, timezone: 'Europe/Berlin' });
      expect(response.status).toBe(200);
      const briefing = response.body;
      expect(briefing.timeAnchor).toMatchObject({ timezone: 'Europe/Berlin', now: expect.any(String) });
      expect(briefing.workingMemory.critical).toEqual([]);
      expect(briefing.workingMemory.normal).toEqual([]);
      expect(briefing.workingMemory.ephemeral).toEqual([]);
      expect(briefing.lastSummary).toBeNull();
      expect(briefing.truncated).toMatchObject({
        'workingMemory.critical': 3,
        lastSummary: 1,
        'workingMemory.normal': 10,
        'workingMemory.ephemeral': 10,
      });
      expectAccounted(briefing);
      expect(briefing.workingMemory.total).toBe(23);
      expect(briefing.text).toContain('Left out to stay within 100 tokens');
    });

    it('fills a middling budget most important first and stays within it', async () => {
      const briefing = (await context(client, project, { budgetTokens: 1200 })).body;
      expect(briefing.budget).toEqual({ limit: 1200, used: expect.any(Number) });
      expect(briefing.budget.used).toBeLessThanOrEqual(1200);
      expect(keys(briefing.workingMemory.critical)).toEqual(['critical-2', 'critical-1', 'critical-0']);
      expect(briefing.status).not.toBeNull();
      expect(briefing.lastSummary).toMatchObject({ text: summary.trim(), clipped: false });
      expect(briefing.workingMemory.normal.length).toBeGreaterThan(0);
      expect(briefing.truncated['workingMemory.normal']).toBeGreaterThan(0);
      expect(briefing.truncated['workingMemory.ephemeral']).toBe(10);
      expectAccounted(briefing);
      // The estimate is characters / 4 of the serialised sections: check it against the real size.
      const { text: _text, budget: _budget, truncated: _truncated, ...sections } = briefing;
      expect(Math.ceil(JSON.stringify(sections).length / 4)).toBeLessThanOrEqual(1200 + 20);
    });

    it('clips the summary rather than dropping it when only part of it fits', async () => {
      const briefing = (await context(client, project, { budgetTokens: 550 })).body;
      expect(briefing.lastSummary.clipped).toBe(true);
      expect(summary.startsWith(briefing.lastSummary.text.slice(0, -1))).toBe(true);
      expect(briefing.truncated.lastSummary).toBe(1);
      expect(briefing.budget.used).toBeLessThanOrEqual(550);
    });

    it('shows everything when the budget allows', async () => {
      const briefing = (await context(client, project, { budgetTokens: 32_000 })).body;
      expect(briefing.truncated).toEqual({});
      expectAccounted(briefing);
      expect(briefing.text).not.toContain('Left out');
    });
  });

  it('shows the last session summary and keeps it in working memory', async () => {
    const project = await newProject();
    const { client } = await agent(project);
    const first = 'Wired the relay to Kafka. Open: retry policy for poison messages.';
    expect((await client.post(`/v1/projects/${project}/session/summary`, { text: first })).status).toBe(201);
    const briefing = (await context(client, project)).body;
    expect(briefing.lastSummary).toEqual({ text: first, updatedAt: expect.any(String), clipped: false });
    expect(briefing.workingMemory.critical).toEqual([]);
    expect(briefing.text).toContain(`## Last session summary, ${briefing.lastSummary.updatedAt}\n${first}`);
    const listed = await client.get(`/v1/projects/${project}/working-memory`);
    expect(listed.body.items).toEqual([
      expect.objectContaining({ key: 'last_session_summary', value: first, importance: 4 }),
    ]);

    const second = 'Added the retry policy; poison messages go to a dead-letter topic.';
    await client.post(`/v1/projects/${project}/session/summary`, { text: second });
    expect((await context(client, project)).body.lastSummary.text).toBe(second);
  });

  it('answers 400 with the standard error body for bad options', async () => {
    const project = await newProject();
    const { client } = await agent(project);
    const bodies: unknown[] = [
      { timezone: 'Mars/Olympus_Mons' },
      { timezone: '+09:00' },
      { timezone: '' },
      { timezone: 42 },
      { timezone: `Europe/${'x'.repeat(64)}` },
      { budgetTokens: 99 },
      { budgetTokens: 32_001 },
      { budgetTokens: 1.5 },
      { budgetTokens: '500' },
      { budgetTokens: null },
      { since: '2026-01-01' },
      { format: 'html' },
      { format: null },
      [],
      'null',
      '{"timezone":',
    ];
    for (const body of bodies) {
      const response = await context(client, project, body);
      expect({ body, status: response.status }).toEqual({ body, status: 400 });
      expect(response.body.error.code).toMatch(/^(validation_failed|invalid_json|bad_request)$/);
      expect(response.body.correlationId).toEqual(expect.any(String));
    }
    const timezone = await context(client, project, { timezone: 'Mars/Olympus_Mons' });
    expect(timezone.body.error.message).toContain('timezone');
  });

  it('renders the compact text recall_context shows an agent when asked for it', async () => {
    const project = await newProject();
    const { client } = await agent(project);
    await remember(client, project, 'deploy', 'Deploys go through make deploy-staging', 4);
    const markdown = await context(client, project);
    const compact = await context(client, project, { format: 'compact' });
    expect(compact.status).toBe(200);
    expect(markdown.body.text).toMatch(/^# Briefing: project /);
    expect(compact.body.text).toMatch(new RegExp(`^Briefing ${project}, `));
    expect(compact.body.text).toContain('Deploys go through make deploy-staging');
    // Ages, not timestamps: the compact form spends less of the agent's context.
    expect(compact.body.text).not.toMatch(/\d{4}-\d{2}-\d{2}T\d{2}:/);
    expect(compact.body.text.length).toBeLessThan(markdown.body.text.length);
    expect(Object.keys(compact.body).sort()).toEqual(Object.keys(markdown.body).sort());
  });
});
