import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type WhoamiView } from './identity.repository';
import { openOfflineStore, type OfflineStore } from './offline-store';
import { type RestTransport } from './rest-call';
import { sqlite } from './sqlite';
import { STORE_FILE } from './store-database';
import { STORE_SCHEMA_VERSION } from './store-schema';
import { replayQueue } from './write-replay';

const server = new URL('https://cairn.example.com');
const whoami = (): Promise<WhoamiView> =>
  Promise.resolve({ kind: 'session', tenant: { id: 't', slug: 'acme' }, tokenId: 'k1', role: 'agent' });
/** The server is never asked in these cases: a replay that would call it fails the test. */
const unreachableByTest: RestTransport = {
  send: () => Promise.reject(new Error('the replay must not send anything here')),
};

/**
 * The replay's own rules that need no server: one replayer per identity at a time (the bridge
 * and the hooks share the queue), and no call started past the caller's deadline. What each
 * answer does to a write is covered against the real api (apps/cli/test: offline-bridge,
 * hooks, hooks-bridge-store).
 */
describe('replaying the offline queue', () => {
  let dir: string;
  const opened: OfflineStore[] = [];
  const open = async () => {
    const store = await openOfflineStore({ cacheDir: dir, server, token: 'tok', whoami });
    opened.push(store);
    return store;
  };
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'cairn-replay-'))));
  afterEach(() => {
    for (const store of opened.splice(0)) store.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('lets one process replay an identity at a time, until its lease is released or runs out', async () => {
    const bridge = await open();
    const hook = await open(); // another connection to the same file, as another process has
    expect(bridge.replayLock.acquire('bridge', 60_000)).toBe(true);
    expect(hook.replayLock.acquire('hook', 60_000)).toBe(false);
    expect(bridge.replayLock.acquire('bridge', 60_000)).toBe(true); // renewed by its holder
    hook.replayLock.release('hook'); // not the holder: nothing changes
    expect(hook.replayLock.acquire('hook', 60_000)).toBe(false);
    // A holder killed mid-replay: its lease runs out and another takes over.
    expect(hook.replayLock.acquire('hook', 60_000, Date.now() + 61_000)).toBe(true);
    expect(bridge.replayLock.acquire('bridge', 60_000)).toBe(false);
    hook.replayLock.release('hook');
    expect(bridge.replayLock.acquire('bridge', 60_000)).toBe(true);
  });

  it('sends nothing while another process replays, and says so', async () => {
    const bridge = await open();
    const hook = await open();
    hook.queue.enqueue('web', { kind: 'session_summary', text: 'summary' });
    bridge.replayLock.acquire('bridge', 60_000);
    const report = await replayQueue(hook, unreachableByTest, { waitForLockMs: 250 });
    expect(report).toEqual({
      writes: [],
      pending: 1,
      stopped: { reason: 'another cairn process is replaying this queue now', unavailable: false, busy: true },
    });
  });

  it('starts no call past its deadline, and leaves the lease free behind it', async () => {
    const hook = await open();
    hook.queue.enqueue('web', { kind: 'extract', body: { transcript: 'User: x' } });
    const report = await replayQueue(hook, unreachableByTest, { deadline: performance.now() + 100 });
    expect(report).toMatchObject({ writes: [], pending: 1, stopped: { unavailable: false } });
    expect(report.stopped?.reason).toMatch(/time/);
    expect((await open()).replayLock.acquire('next', 60_000)).toBe(true);
  });

  it('brings a store file of the first schema up to date', async () => {
    (await open()).close();
    const { DatabaseSync } = sqlite();
    const file = new DatabaseSync(join(dir, STORE_FILE));
    file.exec('DROP TABLE replay_locks; PRAGMA user_version = 1');
    file.close();
    const store = await open();
    expect(store.replayLock.acquire('after-upgrade', 1_000)).toBe(true);
    const check = new DatabaseSync(join(dir, STORE_FILE), { readOnly: true });
    expect(check.prepare('PRAGMA user_version').get()).toEqual({ user_version: STORE_SCHEMA_VERSION });
    check.close();
  });
});
