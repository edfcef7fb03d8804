import { stat } from 'node:fs/promises';
import { type HookContext } from './hook-context';
import { type InputOf } from './hook-input';
import { hookStateFile, writeState } from './hook-state';
import { sendOrQueue } from './hook-writes';
import { clip } from './tool-capture';
import { digestTranscript, readTranscriptLines, TRANSCRIPT_READ_MAX, type TranscriptDigest } from './transcript';

/** Compaction waits for this hook: it may take this long, then compaction goes on with what was saved. */
export const PRE_COMPACT_BUDGET_MS = 8_000;
/** The working-memory key the snapshot is kept under (one per agent and project, the latest compaction's). */
export const COMPACTION_KEY = 'claude-code-compaction';
const WORKING_MEMORY_MAX = 4_000;
const SUMMARY_MAX = 20_000;

/** What SessionStart(compact) restores, kept locally per session id (readable with the server away). */
export interface CompactionSnapshot {
  readonly text: string;
  readonly savedAt: string;
}

/**
 * PreCompact: compaction survival. From the transcript so far: the open tasks (the last todo
 * list), the plans approved, the files changed and the latest requests, kept as a working-memory
 * entry (COMPACTION_KEY, importance 4: every briefing shows it) and as the session summary (the
 * knowledge base keeps it a year; the briefing shows the last one), and locally for the
 * SessionStart after the compaction.
 */
export async function preCompact(ctx: HookContext, input: InputOf<'PreCompact'>): Promise<undefined> {
  const digest = await readDigest(input.transcript_path);
  const savedAt = new Date().toISOString();
  const brief = snapshotText(input, digest, savedAt, 'brief');
  await writeState(hookStateFile(ctx.paths, 'compactions', input.session_id), {
    text: brief,
    savedAt,
  } satisfies CompactionSnapshot);
  const timeout = () => Math.max(300, ctx.remainingMs(PRE_COMPACT_BUDGET_MS));
  const remembered = await sendOrQueue(
    ctx,
    { kind: 'remember', key: COMPACTION_KEY, value: truncate(brief, WORKING_MEMORY_MAX), importance: 4 },
    timeout(),
  );
  const summary = await sendOrQueue(
    ctx,
    { kind: 'session_summary', text: truncate(snapshotText(input, digest, savedAt, 'full'), SUMMARY_MAX) },
    timeout(),
  );
  for (const [what, outcome] of [
    ['working memory', remembered],
    ['session summary', summary],
  ] as const) {
    if (outcome.status !== 'sent') ctx.warn(`${what} ${outcome.status}: ${outcome.reason}`);
  }
  return undefined;
}

/** The latest part of the transcript (its last TRANSCRIPT_READ_MAX bytes), digested. */
async function readDigest(path: string): Promise<TranscriptDigest> {
  const size = path
    ? await stat(path).then(
        (info) => info.size,
        () => 0,
      )
    : 0;
  if (size === 0) return digestTranscript([]);
  const { lines } = await readTranscriptLines(path, Math.max(0, size - TRANSCRIPT_READ_MAX));
  // Reading from the middle of a line: the first one is a fragment unless the read began at 0.
  return digestTranscript(size > TRANSCRIPT_READ_MAX ? lines.slice(1) : lines);
}

/** The snapshot as text: `brief` for working memory (≤ 4,000 characters), `full` for the session summary. */
export function snapshotText(
  input: InputOf<'PreCompact'>,
  digest: TranscriptDigest,
  savedAt: string,
  size: 'brief' | 'full',
): string {
  const full = size === 'full';
  const lines = [
    `Claude Code session ${input.session_id.slice(0, 8)}, before ${input.trigger} compaction at ${savedAt}.`,
  ];
  const open = (digest.todos ?? []).filter((todo) => todo.status !== 'completed');
  if (open.length > 0) {
    lines.push(
      'Open tasks:',
      ...open.slice(0, full ? 50 : 15).map((todo) => `- [${todo.status}] ${clip(todo.content, 200)}`),
    );
  }
  const done = (digest.todos ?? []).filter((todo) => todo.status === 'completed');
  if (full && done.length > 0) lines.push('Done:', ...done.slice(0, 50).map((todo) => `- ${clip(todo.content, 200)}`));
  if (digest.plans.length > 0) {
    lines.push('Decisions (plans approved):');
    for (const plan of digest.plans.slice(full ? -10 : -3)) lines.push(`- ${clip(plan, full ? 2_000 : 400)}`);
  }
  if (digest.files.length > 0) {
    const files = digest.files.slice(full ? -100 : -25);
    lines.push(`Files changed (${digest.files.length}): ${files.join(', ')}`);
  }
  if (digest.requests.length > 0) {
    lines.push(
      'Latest requests:',
      ...digest.requests.slice(full ? -10 : -4).map((text) => `- ${clip(text, full ? 600 : 200)}`),
    );
  }
  if (input.custom_instructions?.trim()) lines.push(`Compaction instructions: ${clip(input.custom_instructions, 500)}`);
  return lines.join('\n');
}

/** Cut at `max` characters, line breaks kept (the entry is read line by line). */
function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
