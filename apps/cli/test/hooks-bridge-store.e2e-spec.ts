import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createTestDatabase, type TestDatabase } from '@cairn/testing';
import { eventually, freePort, generateSecrets, withPassword } from '@cairn/process-harness';
import { HookMachine } from './hook-harness';
import { type BridgeClient, connectBridge, ServerProcesses } from './offline-harness';

/**
 * The Claude Code hooks and `cairn mcp` share one offline store (issue 21 §2–§3): the BUILT
 * command as hook processes and as the bridge (driven by the MCP SDK's Client), against the
 * built api and gateway as processes that are stopped and started again. A briefing saved by
 * either side is served offline by the other; memories a hook recalled are found by the
 * bridge's offline recall; writes either side queued are listed by `cairn queue` and replayed
 * once, in order, by whichever replays first — a SessionStart, the bridge, or `cairn sync`.
 */
describe('the hooks and cairn mcp share one offline store', () => {
  let database: TestDatabase;
  let server: ServerProcesses;
  let machine: HookMachine;
  let token: string;
  const project = 'web';
  const other = 'ledger';
  const secrets = generateSecrets();
  const bridges: BridgeClient[] = [];

  const rest = <T = any>(method: string, path: string, body?: unknown, expected?: number) =>
    server.rest<T>(token, method, path, body, expected);
  const bridge = async () => {
    const connected = await connectBridge({ ...machine.env(), CAIRN_MCP_URL: server.mcpUrl }, [
      '--sync-interval',
      '3600',
    ]);
    bridges.push(connected);
    return connected;
  };
  const call = async (client: BridgeClient, name: string, args: Record<string, unknown>) => {
    const result = (await client.client.callTool({ name, arguments: args })) as {
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
  const focus = (value: string) =>
    rest('PUT', `/v1/projects/${project}/working-memory/current-focus`, { value, importance: 4 }, 200);
  const events = async (summary: string) =>
    (
      await rest<{ items: { summary: string; createdAt: string }[] }>(
        'GET',
        `/v1/projects/${project}/events?limit=100`,
        undefined,
        200,
      )
    ).items.filter((event) => event.summary === summary);
  const memoriesWith = async (content: string) =>
    (
      await rest<{ items: { content: string; createdAt: string }[] }>(
        'GET',
        `/v1/projects/${project}/memories?limit=200`,
        undefined,
        200,
      )
    ).items.filter((memory) => memory.content === content);
  const fileWritten = (session: string, file: string) =>
    machine.run(
      'post-tool-use',
      machine.input('post-tool-use-write', {
        session_id: session,
        tool_input: { file_path: `${machine.repo}/${file}`, content: 'export {};\n' },
      }),
    );
  const queued = async () =>
    (JSON.parse((await machine.cairn(['queue', '--json'])).stdout) as { writes: { operation: { kind: string } }[] })
      .writes;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = new ServerProcesses(
      withPassword(database.url, secrets.databasePassword),
      secrets,
      await freePort(),
      await freePort(),
    );
    await server.start();
    const admin = (method: string, path: string, body: unknown) =>
      server.rest(secrets.adminToken, method, path, body, 201);
    const tenant = (await admin('POST', '/v1/tenants', { slug: 'shared-store', name: 'Shared' })).slug;
    for (const slug of [project, other]) await admin('POST', `/v1/tenants/${tenant}/projects`, { slug, name: slug });
    token = (
      await admin('POST', `/v1/tenants/${tenant}/tokens`, {
        role: 'agent',
        agentId: 'laptop',
        projects: [project, other],
        defaultProject: project,
      })
    ).token;
    machine = new HookMachine({ url: server.apiUrl, token, project });
  }, 120_000);

  afterAll(async () => {
    for (const client of bridges) await client.close().catch(() => undefined);
    await server?.kill();
    await database?.drop();
    machine?.remove();
  });

  it('serves a briefing saved by either side, and finds what a hook recalled, while the server is away', async () => {
    // The bridge saves the briefing (focus "alpha"); a hook recalls a memory of another project.
    await focus('alpha: the invoice export');
    const online = await bridge();
    // One online tools/list: a bridge starting offline later answers it (and initialize) from the cache.
    expect((await online.client.listTools()).tools.map((tool) => tool.name)).toContain('recall_context');
    expect((await call(online, 'recall_context', {})).text).toContain('alpha: the invoice export');
    const reconciler = await rest(
      'POST',
      `/v1/projects/${other}/memories`,
      {
        content: 'The ledger reconciler runs at 02:00 UTC and pages ledger-oncall when the totals differ.',
      },
      201,
    );
    const recalled = await machine.run(
      'user-prompt-submit',
      machine.input('user-prompt-submit', { session_id: 'share-1', prompt: 'when does the ledger reconciler run?' }),
      { CAIRN_PROJECT: other },
    );
    expect(recalled.output?.hookSpecificOutput.additionalContext).toContain(reconciler.memory.id);
    await online.close();

    await server.stop();

    // SessionStart offline: the briefing the bridge saved.
    const start = await machine.run('session-start', machine.input('session-start', { source: 'resume' }));
    expect(start.code).toBe(0);
    expect(start.output?.hookSpecificOutput.additionalContext).toContain(
      'Cairn is unreachable: this is the briefing saved at',
    );
    expect(start.output?.hookSpecificOutput.additionalContext).toContain('alpha: the invoice export');
    // The bridge offline: what the hook recalled, in a project the bridge never read.
    const offline = await bridge();
    const cached = await call(offline, 'memory_recall', { project: other, query: 'ledger reconciler' });
    expect(cached.text).toMatch(/^\[offline\] answered from the local cache/);
    expect(cached.structured.results.map((hit: { memory: { id: string } }) => hit.memory.id)).toEqual([
      reconciler.memory.id,
    ]);
    await offline.close();

    // Back: a session start saves the briefing (focus "beta"), and the bridge serves it offline.
    await server.start();
    await focus('beta: the refund webhooks');
    expect(await machine.run('session-start', machine.input('session-start', { source: 'resume' }))).toMatchObject({
      code: 0,
      stderr: '',
    });
    await server.stop();
    const cold = await bridge();
    const briefing = await call(cold, 'recall_context', {});
    expect(briefing.isError).toBe(false);
    expect(briefing.text).toMatch(/^\[offline\] The server is unreachable: this is the last briefing of web/);
    expect(briefing.text).toContain('beta: the refund webhooks');
    // Its structured copy is the tool's (the SDK client checked it against the output schema).
    expect(briefing.structured).toMatchObject({ cached: { source: 'local-cache' }, workingMemory: expect.any(Object) });
    await cold.close();

    // One identity for the token, whichever side resolved it.
    const file = new DatabaseSync(join(machine.cacheDir, 'offline.sqlite'), { readOnly: true });
    try {
      expect(file.prepare('SELECT count(*) AS n FROM identities').get()).toEqual({ n: 1 });
    } finally {
      file.close();
    }
    await server.start();
  }, 240_000);

  it('replays writes either side queued, once and in order, from a SessionStart, the bridge or cairn sync', async () => {
    const first = await bridge();
    expect((await call(first, 'recall_context', {})).isError).toBe(false);
    await server.stop();

    // Offline: the bridge queues a store, then a hook queues an event behind it.
    const stored = await call(first, 'memory_store', { content: 'Shared queue: the bridge wrote this offline' });
    expect(stored.text).toMatch(/QUEUED, NOT STORED YET/);
    expect((await fileWritten('share-2', 'src/one.ts')).stderr).toMatch(
      /event queued: behind 1 queued write\(s\) \(Cannot reach/,
    );
    expect((await queued()).map((write) => write.operation.kind)).toEqual(['memory_store', 'session_event']);

    // Back: the next SessionStart replays both, the bridge's first.
    await server.start();
    expect(await machine.run('session-start', machine.input('session-start', { source: 'resume' }))).toMatchObject({
      code: 0,
      stderr: '',
    });
    expect(await queued()).toEqual([]);
    const [store] = await memoriesWith('Shared queue: the bridge wrote this offline');
    const [event] = await events('Wrote src/one.ts');
    expect(await memoriesWith('Shared queue: the bridge wrote this offline')).toHaveLength(1);
    expect(await events('Wrote src/one.ts')).toHaveLength(1);
    expect(store.createdAt < event.createdAt).toBe(true);

    // A hook's queued write, replayed by the bridge before its next write.
    await server.stop();
    expect((await fileWritten('share-2', 'src/two.ts')).stderr).toMatch(/event queued: Cannot reach/);
    await server.start();
    const after = await call(first, 'memory_store', { content: 'Shared queue: the bridge is back online' });
    expect(after.structured.memory).toBeDefined();
    // Said on stderr before the store was relayed (another pipe than the answer's: read when it arrives).
    await eventually(
      () => Promise.resolve(/replayed 1 queued write/.test(first.stderr()) ? true : undefined),
      10_000,
      'the replay line',
    );
    expect(await events('Wrote src/two.ts')).toHaveLength(1);

    // And one replayed by `cairn sync`.
    await server.stop();
    expect((await fileWritten('share-2', 'src/three.ts')).stderr).toMatch(/event queued: Cannot reach/);
    await server.start();
    const synced = await machine.cairn(['sync', '--json']);
    expect(synced.code).toBe(0);
    expect(JSON.parse(synced.stdout).writes).toEqual([
      expect.objectContaining({ description: 'event file_written: "Wrote src/three.ts"', outcome: 'stored' }),
    ]);
    expect(await events('Wrote src/three.ts')).toHaveLength(1);
    expect(await queued()).toEqual([]);
  }, 240_000);
});
