import { open } from 'node:fs/promises';
import { isRecord } from './hook-input';

/**
 * Claude Code's session transcript (the JSON Lines file at the hook input's `transcript_path`):
 * one object per line, `type: "user" | "assistant"` with `message.content` a string or content
 * blocks (`text`, `tool_use`, `tool_result`, `thinking`), besides attachments and bookkeeping
 * lines the hooks ignore. Subagent turns (`isSidechain`) and meta lines (`isMeta`, slash-command
 * echoes) are not the conversation and are skipped.
 */
export interface TranscriptDigest {
  /** The conversation as `User: …` / `Assistant: …` lines, every line of a message labelled. */
  readonly conversation: string;
  /** What the user asked, in order. */
  readonly requests: string[];
  /** The last todo list the agent wrote (TodoWrite), if any. */
  readonly todos: { readonly content: string; readonly status: string }[] | undefined;
  /** Plans the user approved (ExitPlanMode). */
  readonly plans: string[];
  /** Files the agent wrote or edited, each once, in order. */
  readonly files: string[];
}

/** Reads at most this much of a transcript per hook run: what is left is read by the next one. */
export const TRANSCRIPT_READ_MAX = 8 * 1024 * 1024;

/**
 * The complete lines of `path` from byte `offset` on (at most TRANSCRIPT_READ_MAX bytes), and
 * the offset after the last of them: a line still being written is left for next time.
 */
export async function readTranscriptLines(
  path: string,
  offset: number,
): Promise<{ lines: string[]; endOffset: number; size: number }> {
  const handle = await open(path, 'r');
  try {
    const { size } = await handle.stat();
    const start = offset > size ? 0 : offset; // a shorter file is a new one (rewritten)
    const length = Math.min(size - start, TRANSCRIPT_READ_MAX);
    const buffer = Buffer.alloc(Math.max(0, length));
    if (length > 0) await handle.read(buffer, 0, length, start);
    const lastNewline = buffer.lastIndexOf(0x0a);
    if (lastNewline < 0) return { lines: [], endOffset: start, size };
    const text = buffer.subarray(0, lastNewline).toString('utf8');
    return { lines: text.split('\n'), endOffset: start + lastNewline + 1, size };
  } finally {
    await handle.close();
  }
}

const FILE_TOOLS = new Set(['Write', 'Edit', 'MultiEdit', 'NotebookEdit']);
/** Text Claude Code puts in user turns that the user did not type. */
const NOT_TYPED = /^\s*<(?:command-|local-command|system-reminder|user-prompt-submit-hook)/;

export function digestTranscript(lines: readonly string[]): TranscriptDigest {
  const conversation: string[] = [];
  const requests: string[] = [];
  const plans: string[] = [];
  const files = new Set<string>();
  let todos: TranscriptDigest['todos'];
  for (const line of lines) {
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      continue;
    }
    if (!isRecord(entry) || entry.isSidechain === true || entry.isMeta === true) continue;
    const message = isRecord(entry.message) ? entry.message : undefined;
    if (!message) continue;
    const blocks = typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content;
    if (!Array.isArray(blocks)) continue;
    const texts: string[] = [];
    for (const block of blocks) {
      if (!isRecord(block)) continue;
      if (block.type === 'text' && typeof block.text === 'string' && !NOT_TYPED.test(block.text))
        texts.push(block.text);
      if (block.type === 'tool_use' && entry.type === 'assistant' && isRecord(block.input)) {
        const input = block.input;
        if (block.name === 'TodoWrite' && Array.isArray(input.todos)) todos = todoList(input.todos);
        if (block.name === 'ExitPlanMode' && typeof input.plan === 'string') plans.push(input.plan);
        const path = input.file_path ?? input.notebook_path;
        if (typeof block.name === 'string' && FILE_TOOLS.has(block.name) && typeof path === 'string') files.add(path);
      }
    }
    const text = texts.join('\n').trim();
    if (!text) continue;
    if (entry.type === 'user') {
      requests.push(text);
      conversation.push(labelled('User', text));
    } else if (entry.type === 'assistant') {
      conversation.push(labelled('Assistant', text));
    }
  }
  return { conversation: conversation.join('\n\n'), requests, todos, plans, files: [...files] };
}

function todoList(items: unknown[]): { content: string; status: string }[] {
  return items.flatMap((item) =>
    isRecord(item) && typeof item.content === 'string'
      ? [{ content: item.content, status: typeof item.status === 'string' ? item.status : 'pending' }]
      : [],
  );
}

/**
 * Every line of a message with its speaker, so the extraction's rules (one line at a time)
 * know who said it; code fences stay bare, as the rules look for them at the start of a line.
 */
function labelled(speaker: string, text: string): string {
  return text
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '')
    .map((line) => (line.trim().startsWith('```') ? line.trim() : `${speaker}: ${line}`))
    .join('\n');
}
