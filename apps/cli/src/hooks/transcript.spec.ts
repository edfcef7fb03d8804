import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { digestTranscript, readTranscriptLines } from './transcript';

const FIXTURE = join(__dirname, '../../test/fixtures/transcript.jsonl');

describe('Claude Code transcripts', () => {
  it('digests the conversation, the last todo list, approved plans and files changed', () => {
    const digest = digestTranscript(readFileSync(FIXTURE, 'utf8').trim().split('\n'));
    expect(digest.todos).toEqual([
      { content: 'Add the refunds migration', status: 'completed' },
      { content: 'Implement POST /refunds', status: 'in_progress' },
      { content: 'Write partial refund tests', status: 'pending' },
    ]);
    expect(digest.plans).toEqual([expect.stringMatching(/^# Refunds in integer cents\n1\. /)]);
    expect(digest.files).toEqual(['/home/dev/billing-api/src/billing/refunds.ts']);
    expect(digest.requests).toEqual([
      'Add refunds to the billing API. We decided to store refund amounts in integer cents, like every other money amount.',
      'Partial refunds must never exceed the captured amount.',
    ]);
    // Every line labelled with its speaker (the extraction rules read line by line); no tool results, thinking or reminders.
    expect(digest.conversation).toContain(
      'Assistant: Fix: the refund endpoint now rejects amounts above the captured amount.\nAssistant: TODO: add the refund webhook handler',
    );
    expect(digest.conversation).not.toMatch(
      /tool_result|Todos have been modified|Plan the refund work|injected context/,
    );
  });

  it('skips lines that are not JSON, subagent turns and meta lines', () => {
    const line = (fields: object) =>
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'hidden words' }, ...fields });
    const digest = digestTranscript(['{not json', line({ isSidechain: true }), line({ isMeta: true }), '']);
    expect(digest).toEqual({ conversation: '', requests: [], todos: undefined, plans: [], files: [] });
  });

  it('reads complete lines from an offset and leaves a line still being written for the next read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'transcript-'));
    try {
      const path = join(dir, 't.jsonl');
      writeFileSync(path, '{"a":1}\n{"b":2}\n{"c":');
      const first = await readTranscriptLines(path, 0);
      expect(first.lines).toEqual(['{"a":1}', '{"b":2}']);
      expect(first.endOffset).toBe(16);
      appendFileSync(path, '3}\n');
      const second = await readTranscriptLines(path, first.endOffset);
      expect(second.lines).toEqual(['{"c":3}']);
      // A file shorter than the offset is a new one: read from its start.
      writeFileSync(path, '{"d":4}\n');
      expect((await readTranscriptLines(path, second.endOffset)).lines).toEqual(['{"d":4}']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
