import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDatabase, type TestDatabase } from '@cairn/testing';
import { eventually, freePort, generateSecrets, withPassword } from '@cairn/process-harness';
import { openOfflineStore } from '../src/offline/offline-store';
import { type BridgeClient, cairnEnv, connectBridge, runCairn, ServerProcesses } from './offline-harness';

/**
 * `cairn mcp` against the BUILT api and gateway as real processes, driven by the MCP SDK's real
 * Client over stdio (issue 21 §3): the server stops mid-session, writes are queued, it comes
 * back, and every queued write is there exactly once; recall and the briefing answer from the
 * cache, marked as such; a client starts offline from the cached tool list; the queue cap
 * refuses; a conflicting replay is held, not applied; the change feed keeps the cache current;
 * two tenants' caches never mix.
 */
describe('cairn mcp offline', () => {
  let database: TestDatabase;
  let server: ServerProcesses;
  let home: string;
  let tenant: string;
  let project: string;
  let token: string;
  let member: string;
  const clients: BridgeClient[] = [];
  const adminToken = () => secrets.adminToken;
  const secrets = generateSecrets();

  const call = async (bridge: BridgeClient, name: string, args: Record<string, unknown>) => {
    const result = (await bridge.client.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: { text: string }[];
      structuredContent?: any;
    };
    return {
      isError: result.isError === true,
      text: result.content[0]?.text ?? '',
      structured: result.structuredContent,
    };
  };
  const bridge = async (extra: Record<string, string> = {}) => {
    const connected = await connectBridge(cairnEnv(server, token, home, extra), ['--sync-interval', '3600']);
    clients.push(connected);
    return connected;
  };
  const memoriesWith = async (content: string) => {
    const page = await server.rest<{ items: { id: string; content: string; createdAt: string }[] }>(
      token,
      'GET',
      `/v1/projects/${project}/memories?limit=200`,
      undefined,
      200,
    );
    return page.items.filter((item) => item.content === content);
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    server = new ServerProcesses(
      withPassword(database.url, secrets.databasePassword),
      secrets,
      await freePort(),
      await freePort(),
    );
    await server.start();
    home = mkdtempSync(join(tmpdir(), 'cairn-offline-e2e-'));
    tenant = (await server.rest(adminToken(), 'POST', '/v1/tenants', { slug: 'offline-a', name: 'A' }, 201)).slug;
    project = (
      await server.rest(adminToken(), 'POST', `/v1/tenants/${tenant}/projects`, { slug: 'web', name: 'Web' }, 201)
    ).slug;
    const issue = (body: Record<string, unknown>) =>
      server.rest(adminToken(), 'POST', `/v1/tenants/${tenant}/tokens`, { projects: [project], ...body }, 201);
    token = (await issue({ role: 'agent', agentId: 'offline-agent', defaultProject: project })).token;
    member = (await issue({ role: 'member' })).token;
  }, 120_000);

  afterAll(async () => {
    for (const client of clients) await client.close().catch(() => undefined);
    await server?.kill();
    await database?.drop();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  it('queues writes while the server is stopped and stores each exactly once when it is back', async () => {
    // Online: the session caches the tool list, a recall and the briefing.
    const first = await bridge();
    expect((await first.client.listTools()).tools.map((tool) => tool.name)).toContain('memory_store');
    const kept = await call(first, 'memory_store', { content: 'Staging deploys run on every merge to main' });
    expect(kept.isError).toBe(false);
    const contested = await call(first, 'memory_store', {
      content: 'The billing service retries webhooks three times',
    });
    const recalled = await call(first, 'memory_recall', { query: 'staging deploys billing webhooks' });
    expect(recalled.structured.results.length).toBe(2);
    const briefing = await call(first, 'recall_context', {});
    expect(briefing.isError).toBe(false);

    await server.stop();

    // Offline: writes are answered as queued, never as stored.
    const queued = [];
    for (const content of [
      'Offline note one: the CDN is Fastly',
      'Offline note two: logs go to Loki',
      'Offline note three: alerts page on-call',
    ]) {
      const answer = await call(first, 'memory_store', { content });
      expect(answer.isError).toBe(false);
      expect(answer.text).toMatch(/QUEUED, NOT STORED YET/);
      expect(answer.structured.queued).toMatchObject({ project, operation: 'memory_store' });
      expect(answer.structured.memory).toBeUndefined();
      queued.push(answer.structured.queued.seq);
    }
    expect(queued).toEqual([...queued].sort((a, b) => a - b));
    expect(
      (await call(first, 'remember', { key: 'current_task', value: 'ship the offline bridge' })).structured.queued,
    ).toBeDefined();
    expect(
      (await call(first, 'session_event', { kind: 'decision', summary: 'Work offline until the VPN is back' }))
        .structured.queued,
    ).toBeDefined();
    const updated = await call(first, 'memory_update', {
      id: kept.structured.memory.id,
      content: 'Staging deploys run on every merge to main and nightly',
    });
    expect(updated.structured.queued).toMatchObject({ operation: 'memory_update' });
    const contestedUpdate = await call(first, 'memory_update', {
      id: contested.structured.memory.id,
      content: 'The billing service retries webhooks five times',
    });
    expect(contestedUpdate.structured.queued).toBeDefined();
    // An update of a memory the cache never saw has no known version: refused, not queued blind.
    const blind = await call(first, 'memory_delete', { id: '00000000-0000-4000-8000-000000000000' });
    expect(blind).toMatchObject({ isError: true, text: expect.stringMatching(/not in the local cache/) });

    // Reads answer from the cache, marked as such, with the data's age.
    const cachedRecall = await call(first, 'memory_recall', { query: 'how do staging deploys run?' });
    expect(cachedRecall.isError).toBe(false);
    expect(cachedRecall.text).toMatch(/^\[offline\] answered from the local cache/);
    expect(cachedRecall.structured.cached).toMatchObject({ source: 'local-cache', ageSeconds: expect.any(Number) });
    expect(cachedRecall.structured.results[0].memory.id).toBe(kept.structured.memory.id);
    const cachedBriefing = await call(first, 'recall_context', {});
    expect(cachedBriefing.text).toMatch(/^\[offline\] The server is unreachable: this is the last briefing/);
    expect(cachedBriefing.structured.cached.source).toBe('local-cache');
    // A tool that needs the server says so.
    expect(await call(first, 'memory_list', {})).toMatchObject({
      isError: true,
      text: expect.stringMatching(/needs it/),
    });

    // A second client starts while the server is away: initialize and tools/list from the cache.
    const cold = await bridge();
    expect(cold.client.getServerVersion()?.name).toMatch(/cairn/i);
    expect((await cold.client.listTools()).tools.map((tool) => tool.name)).toContain('memory_recall');
    expect((await call(cold, 'memory_recall', { query: 'billing webhooks' })).structured.cached).toBeDefined();

    // At the cap, a write is refused with a clear error, and nothing held is lost.
    const capped = await bridge({ CAIRN_QUEUE_MAX: '7' });
    const refused = await call(capped, 'memory_store', { content: 'One write too many' });
    expect(refused).toMatchObject({ isError: true, text: expect.stringMatching(/cap: this write was NOT queued/) });
    const listed = await runCairn(['queue', '--json'], cairnEnv(server, token, home));
    expect(JSON.parse(listed.stdout).counts).toEqual({ pending: 7, conflict: 0, rejected: 0 });

    await server.start();
    // Someone else edits a memory this client changed offline: its queued update must not land.
    await server.rest(
      member,
      'PATCH',
      `/v1/projects/${project}/memories/${contested.structured.memory.id}`,
      {
        content: 'The billing service retries webhooks with backoff',
      },
      200,
    );

    const synced = await runCairn(['sync', '--json'], cairnEnv(server, token, home));
    expect(synced.code).toBe(0);
    const report = JSON.parse(synced.stdout);
    expect(report.writes.map((write: { outcome: string }) => write.outcome)).toEqual([
      'stored',
      'stored',
      'stored',
      'stored',
      'stored',
      'stored',
      'conflict',
    ]);
    expect(report.queue).toEqual({ pending: 0, conflict: 1, rejected: 0 });

    for (const content of [
      'Offline note one: the CDN is Fastly',
      'Offline note two: logs go to Loki',
      'Offline note three: alerts page on-call',
    ]) {
      expect(await memoriesWith(content)).toHaveLength(1);
    }
    const [one] = await memoriesWith('Offline note one: the CDN is Fastly');
    const [three] = await memoriesWith('Offline note three: alerts page on-call');
    expect(one.createdAt <= three.createdAt).toBe(true);
    expect(await memoriesWith('Staging deploys run on every merge to main and nightly')).toHaveLength(1);
    expect(await memoriesWith('One write too many')).toHaveLength(0);
    const workingMemory = await server.rest(token, 'GET', `/v1/projects/${project}/working-memory`, undefined, 200);
    expect(JSON.stringify(workingMemory)).toContain('ship the offline bridge');
    const events = await server.rest(token, 'GET', `/v1/projects/${project}/events?limit=50`, undefined, 200);
    expect(
      events.items.filter((event: { summary: string }) => event.summary === 'Work offline until the VPN is back'),
    ).toHaveLength(1);
    // The conflict: the other edit stands, the queued one is held and shown.
    expect(await memoriesWith('The billing service retries webhooks with backoff')).toHaveLength(1);
    expect(await memoriesWith('The billing service retries webhooks five times')).toHaveLength(0);
    const queue = JSON.parse((await runCairn(['queue', '--json'], cairnEnv(server, token, home))).stdout);
    expect(queue.writes).toEqual([
      expect.objectContaining({ status: 'conflict', reason: expect.stringMatching(/version 2, not 1/) }),
    ]);

    // Replaying again changes nothing: each write is there once.
    await runCairn(['sync', '--json'], cairnEnv(server, token, home));
    expect(await memoriesWith('Offline note two: logs go to Loki')).toHaveLength(1);

    // The bridge that went offline works online again.
    const after = await call(first, 'memory_store', { content: 'Back online: the bridge relays again' });
    expect(after.structured.memory).toBeDefined();
    expect(first.stderr()).toMatch(/unreachable/);
  }, 240_000);

  it('follows the change feed: edits and tombstones reach the cache', async () => {
    const online = await bridge();
    const edited = await call(online, 'memory_store', { content: 'Feature flags live in LaunchDarkly' });
    const removed = await call(online, 'memory_store', { content: 'Feature flags are reviewed monthly' });
    await call(online, 'memory_recall', { query: 'feature flags' });
    await server.rest(
      member,
      'PATCH',
      `/v1/projects/${project}/memories/${edited.structured.memory.id}`,
      {
        content: 'Feature flags live in Unleash',
      },
      200,
    );
    await server.rest(
      token,
      'DELETE',
      `/v1/projects/${project}/memories/${removed.structured.memory.id}`,
      undefined,
      204,
    );
    const store = await openOfflineStore({ cacheDir: join(home, 'cache'), server: new URL(server.apiUrl), token });
    try {
      await eventually(
        async () => {
          await runCairn(['sync', '--json'], cairnEnv(server, token, home));
          const current = store.memories.get(project, edited.structured.memory.id)?.memory.content;
          const gone = store.memories.get(project, removed.structured.memory.id) === undefined;
          return current === 'Feature flags live in Unleash' && gone ? true : undefined;
        },
        30_000,
        'the change feed to reach the cache',
      );
    } finally {
      store.close();
    }
  }, 120_000);

  it("never mixes two tenants' caches in one file", async () => {
    const other = (await server.rest(adminToken(), 'POST', '/v1/tenants', { slug: 'offline-b', name: 'B' }, 201)).slug;
    await server.rest(adminToken(), 'POST', `/v1/tenants/${other}/projects`, { slug: 'web', name: 'Web' }, 201);
    const otherToken = (
      await server.rest(adminToken(), 'POST', `/v1/tenants/${other}/tokens`, { role: 'agent', projects: ['web'] }, 201)
    ).token;
    // Same server, same project slug, same cache directory: a different identity.
    const store = await openOfflineStore({
      cacheDir: join(home, 'cache'),
      server: new URL(server.apiUrl),
      token: otherToken,
      whoami: () => server.rest(otherToken, 'GET', '/v1/whoami', undefined, 200),
    });
    try {
      expect(store.identity.tenantSlug).toBe(other);
      expect(store.memories.search('web', 'staging deploys billing feature flags', 50)).toEqual([]);
      expect(store.saved.briefing('web')).toBeUndefined();
      expect(store.saved.toolCatalog()).toBeUndefined();
      expect(store.queue.list()).toEqual([]);
    } finally {
      store.close();
    }
    const mine = await openOfflineStore({ cacheDir: join(home, 'cache'), server: new URL(server.apiUrl), token });
    try {
      expect(mine.memories.search('web', 'staging deploys', 10).length).toBeGreaterThan(0);
    } finally {
      mine.close();
    }
  });
});
