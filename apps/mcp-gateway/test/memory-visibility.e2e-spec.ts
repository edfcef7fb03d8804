import { randomUUID } from 'node:crypto';
import { AccessRecorder } from '@cairn/memory';
import { MemoryHygiene } from '@cairn/memory-hygiene';
import { TenantEntry } from '@cairn/tenancy';
import { createUser, type TenantFixture, TestClient } from '@cairn/testing';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import { DataSource } from 'typeorm';
import { connectClient, type GatewayWorld, startGatewayWorld, tenantWithProjects, tokenFor } from './gateway-harness';

/** What a reader gets back from one read path: the status, and everything it shows as text. */
interface Answer {
  readonly status: number;
  readonly text: string;
}

type Reader = 'alice' | 'bob' | 'carol' | 'lead';

interface ReadPath {
  readonly path: string;
  /** May see the private memory on this path: its author, or (for what was shared with one) its grantee. */
  readonly seer: Reader;
  /** Another author's reader, who must not. */
  readonly hider: Reader;
  /** The statuses the two get, when the path answers a missing memory with 404. */
  readonly statuses?: readonly [number, number];
  /** Runs before each reader's read (a briefing's "since", a memory unused long enough to prune). */
  readonly before?: () => Promise<void>;
  readonly read: (reader: Reader) => Promise<Answer>;
}

/**
 * Memory's visibility rule on every read path of the memory family (issue 22): alice's private
 * memory stays invisible to bob, another author of the same project (a member, like her), on
 * get, history, list, the category summary, stale, recall in the project and across
 * projects, related, the change feed, the briefing, export, duplicates (live and the stored
 * scan), prune and restore, the contradiction check, the sharing listings, the review queue,
 * and the MCP memory and briefing resources. Each row shows the same path to a reader who may see it too (alice, or carol to
 * whom alice shared it), so no row passes by showing nothing to anyone.
 */
describe('a private memory of another author on every read path', () => {
  let world: GatewayWorld;
  let tenant: TenantFixture;
  let project: string;
  let rest: Record<Reader, TestClient>;
  let mcp: Record<Reader, Client>;
  /** Alice's private memory, the one every path must keep from bob. */
  let secret: string;
  /** Alice's project memory, related to the secret. */
  let open: string;
  /** A contradiction review queued before pairs with private memories stopped being queued. */
  let legacyReview: string;

  const SECRET_TEXT = 'Quasar canary: the ingress retries hide flaky deploys';

  const sql = <T = Record<string, unknown>>(query: string, params: unknown[] = []) =>
    world.api.get(DataSource).query<T[]>(query.replaceAll('$schema', `"${tenant.schema}"`), params);
  const url = (suffix: string) => `/v1/projects/${project}${suffix}`;
  const answer = (response: { status: number; body: unknown }): Answer => ({
    status: response.status,
    text: JSON.stringify(response.body),
  });
  const stored = async (reader: Reader, body: Record<string, unknown>) => {
    const response = await rest[reader].post(url('/memories'), body);
    expect(response.status).toBe(201);
    return response.body as { memory: { id: string }; warnings: { memoryId: string }[] };
  };
  /** Briefings report what is new since the reader's last one: an hour ago, for both. */
  const anHourSinceLastBriefing = async () => {
    await sql(`UPDATE $schema.agent_sessions SET last_seen_at = now() - interval '1 hour'`);
  };

  beforeAll(async () => {
    world = await startGatewayWorld();
    const made = await tenantWithProjects(world, 1);
    tenant = made.tenant;
    project = made.projects[0];
    const aliceUser = await createUser(world.admin, tenant.slug, 'member');
    const bobUser = await createUser(world.admin, tenant.slug, 'member');
    const tokens: Record<Reader, string> = {
      alice: await tokenFor(world, tenant.slug, {
        role: 'member',
        projects: [project],
        userId: aliceUser.id,
        agentId: 'vis:alice',
      }),
      bob: await tokenFor(world, tenant.slug, {
        role: 'member',
        projects: [project],
        userId: bobUser.id,
        agentId: 'vis:bob',
      }),
      // Reviewers: carol is given the memory, the lead is not.
      carol: await tokenFor(world, tenant.slug, { role: 'orchestrator', projects: [project], agentId: 'vis:carol' }),
      lead: await tokenFor(world, tenant.slug, { role: 'orchestrator', projects: [project], agentId: 'vis:lead' }),
    };
    const readers = Object.keys(tokens) as Reader[];
    rest = Object.fromEntries(readers.map((r) => [r, new TestClient(world.api).as(tokens[r])])) as typeof rest;
    mcp = Object.fromEntries(
      await Promise.all(readers.map(async (r) => [r, await connectClient(world.mcpUrl, tokens[r])] as const)),
    ) as typeof mcp;

    // A first briefing each, so the memories below are news to the next one.
    for (const reader of ['alice', 'bob'] as const)
      expect((await rest[reader].post(url('/context'), {})).status).toBe(200);
    await anHourSinceLastBriefing();

    secret = (await stored('alice', { content: SECRET_TEXT, scope: 'private', importance: 5, tags: ['quasar'] })).memory
      .id;
    open = (await stored('alice', { content: 'Quasar rollout notes live in the ops runbook' })).memory.id;
    const link = await rest.alice.post(url(`/memories/${open}/relations`), { toId: secret, type: 'related_to' });
    expect(link.status).toBe(201);
    // Bob's copy of the same text (case and spacing aside): a duplicate pair with the secret.
    await stored('bob', { content: 'quasar canary:  the ingress retries hide flaky deploys' });
    await sql(`UPDATE $schema.memories SET stale = true WHERE id = $1`, [secret]);
    const share = await rest.alice.post(url(`/memories/${secret}/shares`), { agentId: 'vis:carol' });
    expect(share.status).toBe(201);
    // The stored scan, as the maintenance job records it (it sees every memory).
    await world.api.get(TenantEntry).run(tenant, () => world.api.get(MemoryHygiene).recordScan(project));
    // A promotion any reviewer sees, and a contradiction review naming the secret, written as
    // the writer queued such pairs before: the queue must still keep it from readers who may not see it.
    expect((await rest.alice.post(url(`/memories/${open}/promotions`), { toScope: 'team' })).status).toBe(201);
    const bobs = (await stored('bob', { content: 'Quasar rollout is blocked on the canary' })).memory.id;
    legacyReview = randomUUID();
    await sql(
      `INSERT INTO $schema.memory_reviews (id, project_id, kind, memory_id, other_memory_id, proposed_by_agent_id)
       SELECT $1, p.id, 'contradiction', $2, $3, 'vis:bob' FROM $schema.projects p WHERE p.slug = $4`,
      [legacyReview, bobs, secret, project],
    );
  });
  afterAll(async () => {
    for (const client of Object.values(mcp ?? {})) await client.close();
    await world?.close();
  });

  const PATHS: readonly ReadPath[] = [
    {
      // First: nothing below has read the memory yet, and the recorder is flushed before each call.
      path: 'prune (dry run)',
      seer: 'alice',
      hider: 'bob',
      before: async () => {
        await world.api.get(AccessRecorder).flush();
        await sql(
          `UPDATE $schema.memories SET confidence = 0.1, last_accessed_at = now() - interval '3 days' WHERE id = $1`,
          [secret],
        );
      },
      read: async (r) =>
        answer(await rest[r].post(url('/memories/prune'), { maxConfidence: 0.2, olderThanDays: 1, dryRun: true })),
    },
    {
      path: 'restore',
      seer: 'alice',
      hider: 'bob',
      statuses: [200, 404],
      read: async (r) => answer(await rest[r].post(url(`/memories/${secret}/restore`), {})),
    },
    {
      path: 'get',
      seer: 'alice',
      hider: 'bob',
      statuses: [200, 404],
      read: async (r) => answer(await rest[r].get(url(`/memories/${secret}`))),
    },
    {
      path: 'history',
      seer: 'alice',
      hider: 'bob',
      statuses: [200, 404],
      read: async (r) => answer(await rest[r].get(url(`/memories/${secret}/history`))),
    },
    {
      path: 'list',
      seer: 'alice',
      hider: 'bob',
      read: async (r) => answer(await rest[r].get(url('/memories?limit=100'))),
    },
    {
      path: 'categories (the topic view)',
      seer: 'alice',
      hider: 'bob',
      read: async (r) => answer(await rest[r].get(url('/memories/categories?perCategory=5'))),
    },
    {
      path: 'stale',
      seer: 'alice',
      hider: 'bob',
      read: async (r) => answer(await rest[r].get(url('/memories/stale?limit=100'))),
    },
    {
      path: 'recall',
      seer: 'alice',
      hider: 'bob',
      read: async (r) =>
        answer(
          await rest[r].post(url('/memories/search'), { query: 'quasar canary ingress', mode: 'keyword', limit: 50 }),
        ),
    },
    {
      path: 'recall across projects',
      seer: 'alice',
      hider: 'bob',
      read: async (r) =>
        answer(
          await rest[r].post('/v1/memories/search', { query: 'quasar canary ingress', mode: 'keyword', limit: 50 }),
        ),
    },
    {
      path: 'recall with dates',
      seer: 'alice',
      hider: 'bob',
      read: async (r) =>
        answer(
          await rest[r].post(url('/memories/search'), {
            query: 'what did we note about the quasar canary today?',
            limit: 50,
          }),
        ),
    },
    {
      path: 'related',
      seer: 'alice',
      hider: 'bob',
      read: async (r) => answer(await rest[r].get(url(`/memories/${open}/related`))),
    },
    {
      path: 'change feed',
      seer: 'alice',
      hider: 'bob',
      // The feed's horizon is cluster-wide: another file's open transaction may hold fresh rows back a moment.
      read: async (r) => {
        const deadline = Date.now() + 20_000;
        for (;;) {
          const found = answer(await rest[r].get(url('/memories/changes?limit=500')));
          if (r !== 'alice' || found.text.includes(secret) || Date.now() > deadline) return found;
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      },
    },
    {
      path: 'briefing',
      seer: 'alice',
      hider: 'bob',
      before: anHourSinceLastBriefing,
      read: async (r) => answer(await rest[r].post(url('/context'), {})),
    },
    {
      path: 'export',
      seer: 'alice',
      hider: 'bob',
      read: async (r) => {
        const response = await world.api.inject({
          method: 'GET',
          url: url('/memories/export'),
          headers: { authorization: `Bearer ${rest[r].token}` },
        });
        return { status: response.statusCode, text: response.body };
      },
    },
    {
      path: 'duplicates',
      seer: 'alice',
      hider: 'bob',
      read: async (r) => answer(await rest[r].get(url('/memories/duplicates?limit=200'))),
    },
    {
      path: 'duplicates (the stored scan)',
      seer: 'alice',
      hider: 'bob',
      read: async (r) => answer(await rest[r].get(url('/memories/duplicates?source=scan&limit=200'))),
    },
    {
      path: 'contradiction candidates',
      seer: 'alice',
      hider: 'bob',
      read: async (r) =>
        answer(
          await rest[r].post(url('/memories'), {
            content: 'Quasar canary: the ingress retries do not hide flaky deploys',
          }),
        ),
    },
    {
      path: 'shared with me',
      seer: 'carol',
      hider: 'bob',
      read: async (r) => answer(await rest[r].get(url('/shared-with-me'))),
    },
    { path: 'my shares', seer: 'alice', hider: 'bob', read: async (r) => answer(await rest[r].get(url('/shares'))) },
    {
      path: 'review queue',
      seer: 'carol',
      hider: 'lead',
      read: async (r) => answer(await rest[r].get(url('/reviews?limit=200'))),
    },
    {
      path: 'MCP memory resource',
      seer: 'alice',
      hider: 'bob',
      statuses: [200, 404],
      read: async (r) => {
        try {
          const read = await mcp[r].readResource({ uri: `cairn://memories/${secret}` });
          return { status: 200, text: JSON.stringify(read.contents) };
        } catch (error) {
          return { status: 404, text: String(error) };
        }
      },
    },
    {
      path: 'MCP briefing resource',
      seer: 'alice',
      hider: 'bob',
      before: anHourSinceLastBriefing,
      read: async (r) => {
        const read = await mcp[r].readResource({ uri: `cairn://projects/${project}/briefing` });
        return { status: 200, text: JSON.stringify(read.contents) };
      },
    },
  ];

  it.each(PATHS)('$path: shown to $seer, never to $hider', async ({ seer, hider, statuses, before, read }) => {
    await before?.();
    const shown = await read(seer);
    expect(shown.text).toContain(secret);
    await before?.();
    const hidden = await read(hider);
    expect(hidden.text).not.toContain(secret);
    expect(hidden.text).not.toContain(SECRET_TEXT);
    if (statuses) expect([shown.status, hidden.status]).toEqual(statuses);
    else expect(hidden.status).toBeLessThan(300);
  });

  it('keeps the review that names it from a reviewer who may not see it, and queues no new one', async () => {
    const decide = (r: Reader) =>
      rest[r].post(url(`/reviews/${legacyReview}`), { resolution: 'keep_both', reason: 'checked' });
    expect((await decide('lead')).status).toBe(404);
    // Carol may read it (a share): her contradicting store is warned of it, but the pair is not
    // queued, since the project's reviewers could not see the private half.
    const contradicting = await stored('carol', {
      content: 'Quasar canary: the ingress retries never hide flaky deploys',
    });
    expect(contradicting.warnings.map((warning) => warning.memoryId)).toContain(secret);
    const queued = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM $schema.memory_reviews WHERE (memory_id = $1 OR other_memory_id = $1) AND id <> $2`,
      [secret, legacyReview],
    );
    expect(queued[0].n).toBe(0);
  });
});
