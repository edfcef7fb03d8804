import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openOfflineStore } from './offline-store';
import { restCallOf } from './write-calls';
import { describeWrite, type WriteOperation } from './write-operations';

const key = 'cairn-hook-0b1c';

/**
 * The REST call each queued write is sent as, first attempt and replay alike, with what makes
 * its repeat safe; the kinds the Claude Code hooks queue (kb_document, session_summary,
 * extract) beside the bridge's.
 */
describe('the REST call of each queued write', () => {
  it("sends the hooks' writes with what makes their repeat safe", () => {
    const capture: WriteOperation = {
      kind: 'kb_document',
      body: {
        source: 'bash:npm test',
        title: 'Output of `npm test`',
        text: 'PASS '.repeat(3000),
        sourceType: 'internal',
      },
    };
    // The knowledge base keeps the same text of a source once: no key needed, the body is the write.
    expect(restCallOf({ project: 'web', operation: capture, idempotencyKey: key })).toEqual({
      method: 'post',
      path: '/v1/projects/{project}/kb/documents',
      params: { project: 'web' },
      body: capture.body,
    });
    expect(
      restCallOf({
        project: 'web',
        operation: { kind: 'session_summary', text: 'Moved billing' },
        idempotencyKey: key,
      }),
    ).toEqual({
      method: 'post',
      path: '/v1/projects/{project}/session/summary',
      params: { project: 'web' },
      body: { text: 'Moved billing', idempotencyKey: key },
    });
    const extract: WriteOperation = {
      kind: 'extract',
      body: { transcript: 'User: we decided to use cents', occurredAt: '2026-01-02T03:04:05.000Z' },
    };
    // occurredAt is part of the write: the server's reuse of a repeated request matches on it.
    expect(restCallOf({ project: 'web', operation: extract, idempotencyKey: key })).toEqual({
      method: 'post',
      path: '/v1/projects/{project}/extract',
      params: { project: 'web' },
      body: extract.body,
    });
    expect(
      restCallOf({
        project: 'web',
        operation: { kind: 'session_event', body: { kind: 'file_written', summary: 'Wrote a.ts' } },
        idempotencyKey: key,
      }).body,
    ).toEqual({ kind: 'file_written', summary: 'Wrote a.ts', idempotencyKey: key });
    expect(
      restCallOf({
        project: 'web',
        operation: { kind: 'remember', key: 'claude-code-compaction', value: 'open tasks', importance: 4 },
        idempotencyKey: key,
      }),
    ).toEqual({
      method: 'put',
      path: '/v1/projects/{project}/working-memory/{key}',
      params: { project: 'web', key: 'claude-code-compaction' },
      body: { value: 'open tasks', importance: 4 },
    });
  });

  it("sends the bridge's writes as before: a store's key as a header, a delete's version as a query", () => {
    expect(
      restCallOf({ project: 'web', operation: { kind: 'memory_store', body: { content: 'x' } }, idempotencyKey: key }),
    ).toMatchObject({ method: 'post', headers: { 'Idempotency-Key': key }, body: { content: 'x' } });
    expect(
      restCallOf({
        project: 'web',
        operation: { kind: 'memory_update', id: 'm1', expectedVersion: 3, body: { content: 'y' } },
        idempotencyKey: key,
      }),
    ).toMatchObject({
      method: 'patch',
      params: { project: 'web', id: 'm1' },
      body: { content: 'y', expectedVersion: 3 },
    });
    expect(
      restCallOf({
        project: 'web',
        operation: { kind: 'memory_delete', id: 'm1', expectedVersion: 3 },
        idempotencyKey: key,
      }),
    ).toMatchObject({ method: 'delete', query: { expectedVersion: 3 } });
    expect(restCallOf({ project: 'web', operation: { kind: 'forget', key: 'k' }, idempotencyKey: key })).toMatchObject({
      method: 'delete',
      params: { project: 'web', key: 'k' },
    });
  });

  it('describes each kind in one line, never its whole text', () => {
    expect(
      describeWrite({
        kind: 'kb_document',
        body: { source: 'bash:npm test', title: 'Output of `npm test`', text: 'x'.repeat(12_345) },
      }),
    ).toBe('capture "Output of `npm test`" (12,345 characters)');
    expect(describeWrite({ kind: 'kb_document', body: { source: 'https://docs.example.com/a', text: 'x' } })).toBe(
      'capture "https://docs.example.com/a" (1 characters)',
    );
    expect(describeWrite({ kind: 'session_summary', text: `Open tasks:\n${'- refunds\n'.repeat(50)}` })).toMatch(
      /^session summary "Open tasks: - refunds - refunds.{0,40}…"$/,
    );
    expect(describeWrite({ kind: 'extract', body: { transcript: 'User: hi\n'.repeat(300) } })).toBe(
      'extract facts from 2,700 characters of conversation',
    );
  });

  it('keeps each kind whole in the queue, in order, with the key it was first sent with', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-write-calls-'));
    const store = await openOfflineStore({
      cacheDir: dir,
      server: new URL('https://cairn.example.com'),
      token: 'tok',
      whoami: () =>
        Promise.resolve({ kind: 'session', tenant: { id: 't', slug: 'acme' }, tokenId: 'k1', role: 'agent' }),
    });
    try {
      const operations: WriteOperation[] = [
        { kind: 'kb_document', body: { source: 'file:/a.md', text: 'ä'.repeat(400_000), sourceType: 'internal' } },
        { kind: 'session_summary', text: 'summary' },
        { kind: 'extract', body: { transcript: 'User: x', occurredAt: '2026-01-02T03:04:05.000Z' } },
      ];
      operations.forEach((operation, i) => store.queue.enqueue('web', operation, { idempotencyKey: `key-${i}` }));
      const queued = store.queue.list();
      expect(queued.map((write) => write.operation)).toEqual(operations);
      expect(queued.map((write) => write.idempotencyKey)).toEqual(['key-0', 'key-1', 'key-2']);
      expect(restCallOf(queued[1]).body).toEqual({ text: 'summary', idempotencyKey: 'key-1' });
    } finally {
      store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
