import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type WhoamiView } from './identity.repository';
import { matchExpression, type MemoryView } from './memory-cache.repository';
import { openOfflineStore, type OfflineStore, UnknownIdentityError } from './offline-store';
import { CliError, ExitCode } from '../cli-error';
import { isSqliteExperimentalWarning } from './sqlite';
import { isUnreachable } from './unreachable';
import { STORE_FILE } from './store-database';
import { QueueFullError } from './write-queue.repository';

const server = new URL('https://cairn.example.com');

function whoami(tenant: string, tokenId: string, extra: Partial<WhoamiView> = {}): () => Promise<WhoamiView> {
  return () =>
    Promise.resolve({
      kind: 'session',
      tenant: { id: `${tenant}-id`, slug: tenant },
      tokenId,
      role: 'agent',
      userId: null,
      agentId: 'agent:a',
      projects: ['web'],
      defaultProject: 'web',
      ...extra,
    });
}

function memory(id: string, content: string, extra: Partial<MemoryView> = {}): MemoryView {
  return { id, content, category: 'fact', tags: [], keywords: [], version: 1, ...extra };
}

describe('the offline store', () => {
  let dir: string;
  const open: OfflineStore[] = [];
  const store = async (token: string, who: () => Promise<WhoamiView>, extra = {}) => {
    const opened = await openOfflineStore({ cacheDir: join(dir, 'cache'), server, token, whoami: who, ...extra });
    open.push(opened);
    return opened;
  };
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'cairn-offline-'))));
  afterEach(() => {
    for (const opened of open.splice(0)) opened.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('creates one 0600 file in a 0700 directory, in WAL mode', async () => {
    await store('tok-a', whoami('acme', 't1'));
    expect(statSync(join(dir, 'cache')).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'cache', STORE_FILE)).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'cache', `${STORE_FILE}-wal`)).mode & 0o777).toBe(0o600);
  });

  it('identifies a new token once, then opens without asking the server; refuses an unknown token offline', async () => {
    const ask = jest.fn(whoami('acme', 't1'));
    (await store('tok-a', ask)).close();
    const again = await store('tok-a', () => Promise.reject(new Error('offline')));
    expect(again.identity).toMatchObject({ tenantSlug: 'acme', tokenId: 't1', defaultProject: 'web' });
    expect(ask).toHaveBeenCalledTimes(1);
    await expect(store('tok-b', () => Promise.reject(new Error('ECONNREFUSED')))).rejects.toBeInstanceOf(
      UnknownIdentityError,
    );
    await expect(openOfflineStore({ cacheDir: join(dir, 'cache'), server, token: 'tok-c' })).rejects.toBeInstanceOf(
      UnknownIdentityError,
    );
  });

  it('refuses the platform admin token: it has no tenant to key a cache by', async () => {
    await expect(store('adm', () => Promise.resolve({ kind: 'platform' as const }))).rejects.toThrow(
      /session token of a tenant/,
    );
  });

  it('ranks cached memories with FTS5 (stemmed, any word), leaves out archived and superseded ones', async () => {
    const s = await store('tok-a', whoami('acme', 't1'));
    s.memories.put(
      'web',
      [
        memory('m1', 'Deploys to staging run on every merge to main', { keywords: ['release'] }),
        memory('m2', 'The billing service is written in Go'),
        memory('m3', 'We deployed by hand until 2023', { archived: true }),
        memory('m4', 'Deploy on Fridays', { supersededBy: 'm1' }),
      ],
      'recall',
    );
    const results = s.memories.search('web', 'how do we deploy a release?', 10);
    expect(results.map((r) => r.memory.id)).toEqual(['m1']);
    expect(results[0].score).toBeGreaterThan(0);
    expect(s.memories.search('web', 'deploy', 10, { includeArchived: true, includeSuperseded: true })).toHaveLength(3);
    expect(s.memories.search('web', 'billing', 10, { categories: ['decision'] })).toEqual([]);
    expect(s.memories.search('other-project', 'billing', 10)).toEqual([]);
    // FTS5 syntax in the question is only text.
    expect(s.memories.search('web', 'billing" OR NEAR(* content:', 10).map((r) => r.memory.id)).toEqual(['m2']);
    expect(s.memories.search('web', '?!', 10)).toEqual([]);
    expect(matchExpression('Deploy AND "x"')).toBe('"deploy" OR "and" OR "x"');
  });

  it('keeps the newest version, removes tombstoned memories, and evicts the least recently used past the bound', async () => {
    const s = await store('tok-a', whoami('acme', 't1'), { memoriesPerProject: 3 });
    s.memories.put('web', [memory('m1', 'alpha v2', { version: 2 })], 'feed');
    s.memories.put('web', [memory('m1', 'alpha v1', { version: 1 })], 'recall');
    expect(s.memories.get('web', 'm1')?.memory.content).toBe('alpha v2');
    s.memories.put('web', [memory('m2', 'beta'), memory('m3', 'gamma')], 'recall', Date.now() - 1000);
    s.memories.put('web', [memory('m4', 'delta')], 'write');
    // m1 came from the feed (counts as old): it goes first.
    expect(s.memories.get('web', 'm1')).toBeUndefined();
    expect(s.memories.count('web')).toBe(3);
    s.memories.remove('m4');
    expect(s.memories.get('web', 'm4')).toBeUndefined();
  });

  it('never shows one identity what another cached or queued', async () => {
    const a = await store('tok-a', whoami('acme', 't1'));
    const b = await store('tok-b', whoami('globex', 't2'));
    const a2 = await store('tok-a2', whoami('acme', 't3'));
    a.memories.put('web', [memory('m1', 'acme secret roadmap')], 'recall');
    a.saved.saveBriefing('web', { text: 'acme briefing', structured: null });
    a.queue.enqueue('web', { kind: 'remember', key: 'k', value: 'v' });
    for (const other of [b, a2]) {
      expect(other.memories.search('web', 'roadmap', 10)).toEqual([]);
      expect(other.saved.briefing('web')).toBeUndefined();
      expect(other.queue.list()).toEqual([]);
    }
    expect(a2.otherQueues()).toEqual([{ identity: expect.objectContaining({ tokenId: 't1' }), writes: 1 }]);
  });

  it('queues in order, refuses past the cap without losing what it holds, and holds conflicts apart', async () => {
    const s = await store('tok-a', whoami('acme', 't1'), { queueMax: 2 });
    const first = s.queue.enqueue('web', { kind: 'memory_store', body: { content: 'one' } }, { max: 2 });
    const second = s.queue.enqueue('web', { kind: 'forget', key: 'k' }, { max: 2 });
    expect(second.seq).toBeGreaterThan(first.seq);
    expect(first.idempotencyKey).toMatch(/^cairn-offline-/);
    expect(() => s.queue.enqueue('web', { kind: 'forget', key: 'x' }, { max: 2 })).toThrow(QueueFullError);
    s.queue.hold(first.seq, 'conflict', 'version moved', { status: 409 });
    expect(s.queue.nextPending()?.seq).toBe(second.seq);
    expect(s.queue.counts()).toEqual({ pending: 1, conflict: 1, rejected: 0 });
    expect(s.queue.drop(first.seq)).toBe(true);
    expect(s.queue.drop(first.seq)).toBe(false);
  });

  it('keeps the last briefing, the tool catalog and the feed cursor per project', async () => {
    const s = await store('tok-a', whoami('acme', 't1'));
    s.saved.saveBriefing('web', { text: 'hello', structured: { project: 'web' } });
    s.saved.saveToolCatalog({ initialize: { protocolVersion: '2025-11-25' }, tools: { tools: [] } });
    s.saved.saveFeedCursor('web', 'c1');
    s.saved.saveFeedCursor('web', 'c2');
    expect(s.saved.briefing('web')).toMatchObject({ text: 'hello', structured: { project: 'web' } });
    expect(s.saved.toolCatalog()?.initialize).toEqual({ protocolVersion: '2025-11-25' });
    expect(s.saved.feedCursor('web')?.cursor).toBe('c2');
    expect(s.saved.feedCursor('api')).toBeUndefined();
  });

  it('lets two processes write at once without corruption (WAL, busy timeout, transactions)', async () => {
    const s = await store('tok-a', whoami('acme', 't1'));
    const cacheDir = join(dir, 'cache');
    // Another process queues 50 writes while this one queues 50: all 100 are there, in one order.
    const script = `
      const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
      const db = new DatabaseSync(${JSON.stringify(join(cacheDir, STORE_FILE))}, { timeout: 5000 });
      for (let i = 0; i < 50; i++) {
        db.exec('BEGIN IMMEDIATE');
        db.prepare("INSERT INTO write_queue (identity_id, project, operation, payload, idempotency_key, status, created_at, updated_at) VALUES (?, 'web', 'forget', ?, ?, 'pending', 0, 0)")
          .run(${s.identity.id}, JSON.stringify({ kind: 'forget', key: 'child' + i }), 'child' + i);
        db.exec('COMMIT');
      }`;
    const child = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
    for (let i = 0; i < 50; i += 1) s.queue.enqueue('web', { kind: 'forget', key: `parent${i}` });
    expect(child.stderr).not.toMatch(/Error/);
    expect(s.queue.list()).toHaveLength(100);
  });

  it('drops only the SQLite ExperimentalWarning of Node 22', () => {
    expect(
      isSqliteExperimentalWarning('SQLite is an experimental feature and might change at any time', [
        'ExperimentalWarning',
      ]),
    ).toBe(true);
    expect(isSqliteExperimentalWarning('Something else', ['ExperimentalWarning'])).toBe(false);
    expect(isSqliteExperimentalWarning('SQLite is…', ['DeprecationWarning'])).toBe(false);
  });
});

describe('isUnreachable', () => {
  it('is true for network errors, timeouts and 502/503/504, false for answers', () => {
    expect(
      isUnreachable(new CliError('Cannot reach', ExitCode.unavailable, undefined, { reason: 'ECONNREFUSED' })),
    ).toBe(true);
    expect(isUnreachable(new CliError('bad gateway', ExitCode.unavailable, undefined, { status: 503 }))).toBe(true);
    expect(isUnreachable(new CliError('rate limited', ExitCode.unavailable, undefined, { status: 429 }))).toBe(false);
    expect(isUnreachable(new CliError('internal', ExitCode.unavailable, undefined, { status: 500 }))).toBe(false);
    expect(isUnreachable(new CliError('forbidden', ExitCode.refused, undefined, { status: 403 }))).toBe(false);
    expect(isUnreachable(new Error('other'))).toBe(false);
  });
});
