import { TestClient } from '@cairn/testing';
import { type Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  connectClient,
  type GatewayWorld,
  startGatewayWorld,
  tenantWithProjects,
  toolOk,
  toolRefused,
  tokenFor,
} from './gateway-harness';

interface TopicRow {
  topic: string;
  memories: number;
  sources: { tag: number; hashtag: number; keyword: number };
}

/**
 * The topic view (issue 25) over MCP and REST: counts over a seeded project, only over the
 * memories the caller may see (another agent's private memory stays out of every count), and
 * the refusals: a project outside the token, another tenant, bounds and oversized prefixes.
 */
describe('memory_topics and memory_categories', () => {
  let world: GatewayWorld;
  let p0: string;
  let p1: string;
  let alice: Client;
  let bob: Client;
  let reader: Client;
  let outsider: Client;
  let rest: { alice: TestClient; bob: TestClient; reader: TestClient };
  const clients: Client[] = [];

  const topicsOf = (rows: TopicRow[]) => Object.fromEntries(rows.map((row) => [row.topic, row]));

  beforeAll(async () => {
    world = await startGatewayWorld();
    const acme = await tenantWithProjects(world, 2);
    [p0, p1] = acme.projects;
    const other = await tenantWithProjects(world, 1);
    // The topic view is in the maintenance toolset (the default ones have no room for it in their size goal).
    const toolsets = ['core', 'maintenance'];
    const tokens = {
      alice: await tokenFor(world, acme.tenant.slug, {
        role: 'agent',
        projects: [p0],
        agentId: 'topics:alice',
        toolsets,
      }),
      bob: await tokenFor(world, acme.tenant.slug, {
        role: 'agent',
        projects: [p0, p1],
        agentId: 'topics:bob',
        toolsets,
      }),
      reader: await tokenFor(world, acme.tenant.slug, {
        role: 'reader',
        projects: [p0],
        agentId: 'topics:reader',
        toolsets,
      }),
      outsider: await tokenFor(world, other.tenant.slug, {
        role: 'member',
        projects: '*',
        agentId: 'topics:out',
        toolsets,
      }),
    };
    const connect = async (token: string) => {
      const client = await connectClient(world.mcpUrl, token);
      clients.push(client);
      return client;
    };
    alice = await connect(tokens.alice);
    bob = await connect(tokens.bob);
    reader = await connect(tokens.reader);
    outsider = await connect(tokens.outsider);
    rest = {
      alice: new TestClient(world.api).as(tokens.alice),
      bob: new TestClient(world.api).as(tokens.bob),
      reader: new TestClient(world.api).as(tokens.reader),
    };

    const store = (client: Client, args: Record<string, unknown>) => toolOk(client, 'memory_store', args);
    await store(alice, {
      project: p0,
      content: 'Deploys go through Helm; see #deploy and #helm-charts',
      category: 'decision',
      tags: ['Deploy', 'ci'],
    });
    await store(alice, { project: p0, content: 'Canary first, then the rest', category: 'decision', tags: ['deploy'] });
    await store(bob, {
      project: p0,
      content: 'The flaky test hides a race #flaky',
      category: 'bug',
      keywords: ['Deploy', 'race'],
    });
    // Alice's private memory: bob and the reader must not count it anywhere.
    await store(alice, {
      project: p0,
      content: 'Secret plan #zeppelin',
      category: 'bug',
      tags: ['zeppelin', 'deploy'],
      scope: 'private',
    });
    // Another project's memory stays out of p0's view.
    await store(bob, { project: p1, content: 'Other project #elsewhere', category: 'fact', tags: ['elsewhere'] });
  });
  afterAll(async () => {
    for (const client of clients) await client.close();
    await world?.close();
  });

  it('counts topics from tags, keywords and hashtags, each memory once per topic', async () => {
    const { data, text } = await toolOk(bob, 'memory_topics', { project: p0 });
    const topics = topicsOf(data.topics);
    expect(data.memories).toBe(3);
    // Two tags (alice's two) and a keyword (bob's); alice's first memory also has #deploy, counted once.
    expect(topics.deploy).toEqual({ topic: 'deploy', memories: 3, sources: { tag: 2, hashtag: 1, keyword: 1 } });
    expect(topics['helm-charts']).toEqual({
      topic: 'helm-charts',
      memories: 1,
      sources: { tag: 0, hashtag: 1, keyword: 0 },
    });
    expect(topics.flaky.memories).toBe(1);
    expect(topics.race.sources.keyword).toBe(1);
    expect(data.topics[0].topic).toBe('deploy');
    expect(data.hashtagScan).toEqual({ scanned: 2, complete: true });
    expect(topics.zeppelin).toBeUndefined();
    expect(topics.elsewhere).toBeUndefined();
    expect(text).toContain('deploy: 3');
    expect(text).not.toContain('zeppelin');
  });

  it("counts the author's own private memory for the author only", async () => {
    const { data } = await toolOk(alice, 'memory_topics', { project: p0 });
    const topics = topicsOf(data.topics);
    expect(data.memories).toBe(4);
    expect(topics.zeppelin.memories).toBe(1);
    expect(topics.deploy.memories).toBe(4);
  });

  it('narrows by prefix, case-insensitively, and bounds the list', async () => {
    const { data } = await toolOk(bob, 'memory_topics', { project: p0, prefix: 'DE' });
    expect(data.topics.map((row: TopicRow) => row.topic)).toEqual(['deploy']);
    const limited = await toolOk(bob, 'memory_topics', { project: p0, limit: 2 });
    expect(limited.data.topics).toHaveLength(2);
  });

  it('treats the prefix as a plain filter: blank lists all, wildcards match literally', async () => {
    const all = await toolOk(bob, 'memory_topics', { project: p0 });
    const blank = await toolOk(bob, 'memory_topics', { project: p0, prefix: '  ' });
    expect(blank.data.topics).toEqual(all.data.topics);
    expect((await toolOk(bob, 'memory_topics', { project: p0, prefix: '%' })).data.topics).toEqual([]);
    expect((await toolOk(bob, 'memory_topics', { project: p0, prefix: 'd_' })).data.topics).toEqual([]);
    const controls = await toolOk(bob, 'memory_topics', { project: p0, prefix: 'de\u0000' });
    expect(controls.data.topics.map((row: TopicRow) => row.topic)).toEqual(['deploy']);
  });

  it('summarises categories with the newest snippets, over visible memories only', async () => {
    const { data, text } = await toolOk(bob, 'memory_categories', { project: p0, perCategory: 1 });
    expect(data.memories).toBe(3);
    const byCategory = Object.fromEntries(data.categories.map((row: { category: string }) => [row.category, row]));
    expect(Object.keys(byCategory).sort()).toEqual(['bug', 'decision']);
    expect(byCategory.decision.memories).toBe(2);
    expect(byCategory.decision.newest).toHaveLength(1);
    expect(byCategory.decision.newest[0].snippet).toBe('Canary first, then the rest');
    expect(byCategory.bug.memories).toBe(1);
    expect(byCategory.bug.newest[0].snippet).toContain('flaky test');
    expect(text).not.toContain('Secret plan');
    const mine = await toolOk(alice, 'memory_categories', { project: p0, perCategory: 0 });
    expect(mine.data.memories).toBe(4);
    expect(mine.data.categories.every((row: { newest: unknown[] }) => row.newest.length === 0)).toBe(true);
  });

  it('answers a reader', async () => {
    expect((await toolOk(reader, 'memory_topics', { project: p0 })).data.memories).toBe(3);
    expect((await toolOk(reader, 'memory_categories', { project: p0 })).data.memories).toBe(3);
    const response = await rest.reader.get(`/v1/projects/${p0}/memories/topics`);
    expect(response.status).toBe(200);
  });

  it('refuses a project outside the token and one of another tenant', async () => {
    expect(await toolRefused(alice, 'memory_topics', { project: p1 })).toMatch(/project/i);
    expect(await toolRefused(alice, 'memory_categories', { project: p1 })).toMatch(/project/i);
    expect(await toolRefused(outsider, 'memory_topics', { project: p0 })).toMatch(/project/i);
    expect((await rest.alice.get(`/v1/projects/${p1}/memories/topics`)).status).toBe(403);
  });

  it.each([
    [{ limit: 101 }, /limit/],
    [{ limit: 0 }, /limit/],
    [{ prefix: 'x'.repeat(65) }, /prefix/],
    [{ bogus: true }, /bogus|unrecognized/i],
  ])('refuses memory_topics with %j', async (args, message) => {
    expect(await toolRefused(bob, 'memory_topics', { project: p0, ...args })).toMatch(message);
  });

  it('refuses memory_categories with too many per category', async () => {
    expect(await toolRefused(bob, 'memory_categories', { project: p0, perCategory: 6 })).toMatch(/perCategory/);
  });

  it('serves the same view over REST, with the same refusals', async () => {
    const topics = await rest.bob.get(`/v1/projects/${p0}/memories/topics?prefix=de&limit=5`);
    expect(topics.status).toBe(200);
    expect(topics.body.topics[0]).toMatchObject({ topic: 'deploy', memories: 3 });
    const categories = await rest.bob.get(`/v1/projects/${p0}/memories/categories?perCategory=2`);
    expect(categories.status).toBe(200);
    expect(categories.body.memories).toBe(3);
    expect(JSON.stringify(categories.body)).not.toContain('Secret plan');
    expect((await rest.bob.get(`/v1/projects/${p0}/memories/topics?limit=500`)).status).toBe(400);
    expect((await rest.bob.get(`/v1/projects/${p0}/memories/topics?prefix=`)).status).toBe(200);
    expect((await rest.bob.get(`/v1/projects/${p0}/memories/topics?prefix=${'x'.repeat(65)}`)).status).toBe(400);
    expect((await rest.bob.get(`/v1/projects/${p0}/memories/categories?perCategory=9`)).status).toBe(400);
    // A blank number is no number (it used to read as 0, counts only): refused, as any non-number.
    for (const blank of ['', '%20', 'abc']) {
      const refused = await rest.bob.get(`/v1/projects/${p0}/memories/categories?perCategory=${blank}`);
      expect(refused.status).toBe(400);
      expect(JSON.stringify(refused.body)).toContain('perCategory');
    }
    expect((await rest.bob.get(`/v1/projects/${p0}/memories/categories?perCategory=0`)).status).toBe(200);
  });
});
