import { randomUUID } from 'node:crypto';
import { createProject, createTenant, issueToken, runJob, type TestClient } from '@cairn/testing';
import { type Pipeline, requestUrl, startPipeline, waitForRequest } from './summaries-harness';

const TRANSCRIPT = [
  'User: We decided to use PostgreSQL 15 for the event store.',
  'User: I prefer small pull requests with one concern each.',
  'Assistant: Fix: the retry loop now caps its backoff at 30 seconds.',
  'TODO: rotate the staging database credentials',
  'User: Should we use Redis for the cache?',
  'Assistant: Maybe the worker could use Kafka later.',
].join('\n');

/** With CHAT_PROVIDER=none extraction uses the conservative rules; proposals, review, modes and settings. */
describe('fact extraction without a model', () => {
  let p: Pipeline;
  const project = () => p.w.project;
  const url = (suffix: string, slug = project()) => `/v1/projects/${slug}${suffix}`;
  const settingsUrl = () => `/v1/tenants/${p.w.tenant.slug}/settings`;

  async function extract(client: TestClient, transcript: string) {
    const posted = await client.post(url('/extract'), { transcript });
    expect(posted.status).toBe(202);
    const done = await waitForRequest(client, project(), posted.body.requestId);
    expect(done.body).toMatchObject({ kind: 'fact_extraction', status: 'done' });
    return done.body;
  }

  beforeAll(async () => {
    p = await startPipeline({ CHAT_PROVIDER: 'none' });
  });
  afterAll(() => p?.close());

  it('proposes only the plainly stated facts, as pending proposals by default', async () => {
    const done = await extract(p.w.agent, TRANSCRIPT);
    expect(done).toMatchObject({
      generatedBy: 'fallback:rules',
      flaggedInjection: false,
      requestedBy: { agentId: 'claude-code:alice' },
      result: { mode: 'proposals', source: 'rules', candidates: 4, dropped: 0, memoryIds: [] },
    });
    expect(done.result.proposalIds).toHaveLength(4);
    const [row] = await p.sql(`SELECT input FROM {schema}.generation_requests WHERE id = $1`, [done.id]);
    expect(row.input).toBeNull();

    const pending = await p.w.reader.get(url('/proposals'));
    expect(pending.status).toBe(200);
    expect(
      pending.body.items.map((item: any) => [item.category, item.content, item.status, item.confidence]).sort(),
    ).toEqual(
      [
        ['decision', 'We decided to use PostgreSQL 15 for the event store.', 'pending', 0.6],
        ['preference', 'I prefer small pull requests with one concern each.', 'pending', 0.6],
        ['bug', 'Fix: the retry loop now caps its backoff at 30 seconds.', 'pending', 0.6],
        ['todo', 'TODO: rotate the staging database credentials', 'pending', 0.6],
      ].sort(),
    );
    expect(pending.body.items[0]).toMatchObject({ requestId: done.id, memoryId: null, decidedBy: null });

    // Overlapping transcripts do not propose the same fact twice.
    const overlap = await extract(p.w.otherAgent, `${TRANSCRIPT}\nUser: We agreed to deploy on Tuesdays only.`);
    expect(overlap.result).toMatchObject({ candidates: 5 });
    expect(overlap.result.proposalIds).toHaveLength(1);

    // Re-running the finished job is a no-op.
    expect(
      await runJob(p.worker, 'extraction', 'extract-facts', { tenantId: p.w.tenant.id, requestId: done.id }),
    ).toEqual({ status: 'skipped', detail: 'already done' });
    const count = await p.sql(`SELECT count(*)::int AS n FROM {schema}.memory_proposals`);
    expect(count[0].n).toBe(5);
  });

  it('lets members and admins accept (optionally edited) or reject proposals, once', async () => {
    const pending = (await p.w.reader.get(url('/proposals?limit=200'))).body.items;
    const decision = pending.find((item: any) => item.category === 'decision');
    const todo = pending.find((item: any) => item.category === 'todo');

    const denied = await p.w.agent.post(url(`/proposals/${decision.id}/accept`), {});
    expect(denied.status).toBe(403);
    expect(denied.body.error.code).toBe('insufficient_role');

    const accepted = await p.w.member.post(url(`/proposals/${decision.id}/accept`), {
      content: 'The event store runs on PostgreSQL 15.',
      tags: ['Database'],
      importance: 5,
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.proposal).toMatchObject({
      id: decision.id,
      status: 'accepted',
      memoryId: expect.any(String),
      decidedBy: { userId: null, agentId: null },
      decidedAt: expect.any(String),
    });
    expect(accepted.body.warnings).toEqual(expect.any(Array));
    const memory = await p.w.reader.get(url(`/memories/${accepted.body.proposal.memoryId}`));
    expect(memory.body).toMatchObject({
      content: 'The event store runs on PostgreSQL 15.',
      category: 'decision',
      importance: 5,
      confidence: 0.9,
    });
    expect(memory.body.tags.sort()).toEqual(['database', 'extracted']);

    const twice = await p.w.admin.post(url(`/proposals/${decision.id}/accept`));
    expect(twice.status).toBe(409);
    expect(twice.body.error.code).toBe('proposal_decided');

    const rejected = await p.w.admin.post(url(`/proposals/${todo.id}/reject`));
    expect(rejected.status).toBe(200);
    expect(rejected.body).toMatchObject({ id: todo.id, status: 'rejected', memoryId: null });
    expect((await p.w.member.post(url(`/proposals/${todo.id}/reject`), {})).status).toBe(409);
    expect((await p.w.member.post(url(`/proposals/${todo.id}/accept`), {})).status).toBe(409);

    expect((await p.w.reader.get(url('/proposals?status=accepted'))).body.items.map((i: any) => i.id)).toEqual([
      decision.id,
    ]);
    expect((await p.w.reader.get(url('/proposals?status=rejected'))).body.items.map((i: any) => i.id)).toEqual([
      todo.id,
    ]);
    const first = await p.w.reader.get(url('/proposals?limit=2'));
    expect(first.body.items).toHaveLength(2);
    const second = await p.w.reader.get(url(`/proposals?limit=2&cursor=${first.body.nextCursor}`));
    expect(second.body.items).toHaveLength(1);
    expect(second.body.nextCursor).toBeNull();
  });

  it('takes host lists with repeated and numeric-looking labels (schemathesis found a 500 here)', async () => {
    const body = {
      extractionMode: 'proposals',
      fetchDenyHosts: ['u8obi.1.4.a', '0b.scfe0es9vz2-l.k.tcfe0es9vz2-f', 'u8obi.1.4.a', '8m6'],
      fetchAllowHosts: [
        '0b.s5crticbwh3lfir5qse2l.k.a',
        '0b.s5crticbwh3lfir5qse2l.k.tcfe0es9vz2-f',
        '*.2ous.sh3',
        '8m6',
      ],
    };
    const changed = await p.w.admin.patch(settingsUrl(), body);
    console.log(JSON.stringify(changed.body));
    expect(changed.status).toBe(200);
    await p.w.admin.patch(settingsUrl(), { fetchDenyHosts: [], fetchAllowHosts: [] });
  });

  it('stores memories directly in "memories" mode, authored by the requester', async () => {
    const before = await p.w.admin.get(settingsUrl());
    expect(before.body).toEqual({
      extractionMode: 'proposals',
      secrets: 'redact',
      fetchAllowHosts: [],
      fetchDenyHosts: [],
      agentDefaultScope: 'project',
      retention: {
        auditLogDays: { effective: 365, tenant: null, default: 365 },
        knowledgeBaseDays: {
          external: { effective: 14, tenant: null, default: 14 },
          internal: { effective: 30, tenant: null, default: 30 },
          summary: { effective: 365, tenant: null, default: 365 },
        },
      },
    });
    expect((await p.w.admin.patch(settingsUrl(), { extractionMode: 'memories' })).body).toMatchObject({
      extractionMode: 'memories',
      secrets: 'redact',
    });
    try {
      const done = await extract(p.w.agent, 'User: We decided to ship the mobile app through Fastlane.');
      expect(done.result).toMatchObject({ mode: 'memories', source: 'rules', candidates: 1, proposalIds: [] });
      const memory = await p.w.reader.get(url(`/memories/${done.result.memoryIds[0]}`));
      expect(memory.body).toMatchObject({
        content: 'We decided to ship the mobile app through Fastlane.',
        category: 'decision',
        confidence: 0.6,
        author: { agentId: 'claude-code:alice' },
        tags: ['extracted'],
      });
      expect(memory.body.keywords).toEqual(expect.arrayContaining(['mobile', 'fastlane']));
    } finally {
      await p.w.admin.patch(settingsUrl(), { extractionMode: 'proposals' });
    }
  });

  it('dates the facts by when the conversation took place (occurredAt), in either mode', async () => {
    const occurredAt = '2024-02-29T16:00:00+01:00';
    const posted = await p.w.agent.post(url('/extract'), {
      transcript: 'User: We decided to keep the invoices in Parquet files.',
      occurredAt,
    });
    expect(posted.status).toBe(202);
    const done = await waitForRequest(p.w.agent, project(), posted.body.requestId);
    const [proposalId] = done.body.result.proposalIds;
    const proposal = (await p.w.reader.get(url('/proposals'))).body.items.find((item: any) => item.id === proposalId);
    expect(proposal.occurredAt).toBe('2024-02-29T15:00:00.000Z');
    const accepted = await p.w.member.post(url(`/proposals/${proposalId}/accept`), {});
    const memory = await p.w.reader.get(url(`/memories/${accepted.body.proposal.memoryId}`));
    expect(memory.body.occurredAt).toBe('2024-02-29T15:00:00.000Z');

    // Without one, the facts occurred when the transcript was sent; in "memories" mode alike.
    await p.w.admin.patch(settingsUrl(), { extractionMode: 'memories' });
    try {
      const direct = await extract(p.w.agent, 'User: We decided to archive invoices after seven years.');
      const stored = await p.w.reader.get(url(`/memories/${direct.result.memoryIds[0]}`));
      expect(stored.body.occurredAt).toBe(new Date(direct.createdAt).toISOString());
    } finally {
      await p.w.admin.patch(settingsUrl(), { extractionMode: 'proposals' });
    }
    const bad = await p.w.agent.post(url('/extract'), { transcript: 'User: hi', occurredAt: '2999-01-01T00:00:00Z' });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body.error)).toMatch(/occurredAt: must not be more than a day in the future/);
  });

  it('keeps tenant settings to tenant admins and the platform admin, audited', async () => {
    for (const client of [p.w.member, p.w.agent, p.w.reader]) {
      const denied = await client.patch(settingsUrl(), { extractionMode: 'memories' });
      expect(denied.status).toBe(403);
      expect((await client.get(settingsUrl())).status).toBe(403);
    }
    expect((await p.api.admin.get(settingsUrl())).body).toMatchObject({
      extractionMode: 'proposals',
      secrets: 'redact',
    });
    expect((await p.api.admin.patch(settingsUrl(), { extractionMode: 'proposals' })).status).toBe(200);
    expect((await p.api.admin.get('/v1/tenants/no-such-tenant/settings')).status).toBe(404);
    expect((await p.api.client.get(settingsUrl())).status).toBe(401);

    const other = await createTenant(p.api.admin);
    const strangerAdmin = p.api.client.as((await issueToken(p.api.admin, other.slug, { role: 'admin' })).token);
    const wrong = await strangerAdmin.patch(settingsUrl(), { extractionMode: 'memories' });
    expect(wrong.status).toBe(403);
    expect(wrong.body.error.code).toBe('wrong_tenant');
    expect((await p.w.admin.get(settingsUrl())).body).toMatchObject({ extractionMode: 'proposals', secrets: 'redact' });

    for (const body of [
      {},
      { extractionMode: 'auto' },
      { extractionMode: 'memories', other: 1 },
      { extractionMode: 1 },
    ]) {
      const bad = await p.w.admin.patch(settingsUrl(), body);
      expect({ body, status: bad.status }).toEqual({ body, status: 400 });
    }
    expect((await p.w.admin.request('PATCH', settingsUrl(), '{bad json}')).status).toBe(400);

    const audit = await p.w.admin.get(`/v1/tenants/${p.w.tenant.slug}/audit?limit=200`);
    const actions = audit.body.items
      .filter((entry: any) => entry.action === 'tenant.settings.update')
      .map((entry: any) => entry.outcome);
    expect(actions).toEqual(expect.arrayContaining(['success', 'denied', 'failure']));
  });

  it('rejects bad input on every extraction route', async () => {
    for (const body of [
      {},
      { transcript: '' },
      { transcript: '\u0000 ' },
      { transcript: 'x'.repeat(200_001) },
      { transcript: 1 },
      { transcript: 'ok', mode: 'memories' },
    ]) {
      const bad = await p.w.agent.post(url('/extract'), body);
      expect({ body, status: bad.status }).toEqual({ body, status: 400 });
    }
    for (const query of ['?status=open', '?limit=0', '?limit=201', '?limit=x', '?cursor=nope', '?other=1']) {
      expect({ query, status: (await p.w.reader.get(url(`/proposals${query}`))).status }).toEqual({
        query,
        status: 400,
      });
    }
    const [proposal] = (await p.w.reader.get(url('/proposals'))).body.items;
    for (const body of [
      { content: '' },
      { content: 5 },
      { category: 'facts' },
      { importance: 9 },
      { importance: 2.5 },
      { tags: ['x'.repeat(65)] },
      { keywords: 'one' },
      { supersedes: [] },
    ]) {
      const bad = await p.w.member.post(url(`/proposals/${proposal.id}/accept`), body);
      expect({ body, status: bad.status }).toEqual({ body, status: 400 });
    }
    expect((await p.w.member.post(url(`/proposals/${proposal.id}/reject`), { reason: 'no' })).status).toBe(400);
    expect((await p.w.member.post(url('/proposals/not-a-uuid/accept'), {})).status).toBe(400);
    const missing = await p.w.member.post(url(`/proposals/${randomUUID()}/reject`));
    expect(missing.status).toBe(404);
    // Still pending after all that.
    expect((await p.w.reader.get(url('/proposals'))).body.items.map((i: any) => i.id)).toContain(proposal.id);
  });

  it('never lets another project or tenant see or decide the proposals and requests', async () => {
    const [proposal] = (await p.w.reader.get(url('/proposals'))).body.items;
    const outside = await p.w.agent.post(url('/extract', p.w.otherProject), { transcript: TRANSCRIPT });
    expect(outside.status).toBe(403);
    expect(outside.body.error.code).toBe('project_forbidden');
    // Same tenant, other project (the member's token covers every project).
    expect((await p.w.member.post(url(`/proposals/${proposal.id}/accept`, p.w.otherProject), {})).status).toBe(404);
    expect((await p.w.member.get(url('/proposals', p.w.otherProject))).body.items).toEqual([]);
    expect((await p.w.member.get(requestUrl(p.w.otherProject, proposal.requestId))).status).toBe(404);

    const other = await createTenant(p.api.admin);
    await createProject(p.api.admin, other.slug, project());
    const stranger = p.api.client.as((await issueToken(p.api.admin, other.slug, { role: 'admin' })).token);
    expect((await stranger.post(url(`/proposals/${proposal.id}/accept`), {})).status).toBe(404);
    expect((await stranger.get(url('/proposals'))).body.items).toEqual([]);
    expect((await stranger.get(requestUrl(project(), proposal.requestId))).status).toBe(404);
    expect((await p.w.reader.get(url('/proposals'))).body.items.map((i: any) => i.id)).toContain(proposal.id);
  });

  it('refuses an accepted proposal whose edited content is over the memory limit, and stores nothing', async () => {
    const max = p.api.config.memory.contentMaxChars;
    const [proposal] = (await p.w.reader.get(url('/proposals'))).body.items;
    const memoriesBefore = await p.sql(`SELECT count(*)::int AS n FROM {schema}.memories`);
    const refused = await p.w.member.post(url(`/proposals/${proposal.id}/accept`), { content: 'y'.repeat(max + 1) });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toEqual({
      code: 'content_too_long',
      message: `content must be at most ${max} characters`,
    });
    expect(await p.sql(`SELECT count(*)::int AS n FROM {schema}.memories`)).toEqual(memoriesBefore);
    const [row] = await p.sql(`SELECT status, memory_id FROM {schema}.memory_proposals WHERE id = $1`, [proposal.id]);
    expect(row).toEqual({ status: 'pending', memory_id: null });
    // At the limit it is accepted, as a memory stored by hand would be.
    const accepted = await p.w.member.post(url(`/proposals/${proposal.id}/accept`), { content: 'y'.repeat(max) });
    expect(accepted.status).toBe(200);
    const memory = await p.w.reader.get(url(`/memories/${accepted.body.proposal.memoryId}`));
    expect(memory.body.content).toHaveLength(max);
  });
});
