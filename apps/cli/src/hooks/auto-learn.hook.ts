import { type HookContext } from './hook-context';
import { type InputOf } from './hook-input';
import { hookStateFile, readState, withLock, writeState } from './hook-state';
import { sendOrQueue } from './hook-writes';
import { digestTranscript, readTranscriptLines } from './transcript';

/** Stop runs in the background (async in hooks.json): it may take this long. */
export const LEARN_BUDGET_MS = 30_000;
/**
 * Stop sends once this much new conversation has gathered (a few exchanges): one extraction job
 * per turn would be many tiny ones. SessionEnd sends whatever is left, down to one sentence.
 */
export const LEARN_MIN_CHARS = 2_000;
export const FLUSH_MIN_CHARS = 40;
/** The extraction endpoint takes 200,000 characters; longer backlogs go in parts of this size. */
const PART_CHARS = 190_000;
const PARTS_PER_RUN = 5;

/** How far into a transcript its conversation was sent, per transcript file. */
interface LearnMarker {
  readonly path: string;
  readonly offset: number;
  readonly updatedAt: string;
}

/**
 * Stop and SessionEnd: auto-learn. The conversation added to the transcript since the last
 * send (a marker per transcript file keeps the byte offset) goes to the worker's fact
 * extraction (`POST …/extract`; its proposals follow the tenant's review setting). The marker
 * moves only once the server has the text or the queue holds it, under a lock, so a Stop and a
 * SessionEnd running at once never send the same bytes twice; re-running a hook sends nothing new.
 */
export async function autoLearn(ctx: HookContext, input: InputOf<'Stop'> | InputOf<'SessionEnd'>): Promise<undefined> {
  const path = input.transcript_path;
  const flush = input.hook_event_name === 'SessionEnd';
  if (path) {
    const markerFile = hookStateFile(ctx.paths, 'transcripts', path);
    const done = await withLock(markerFile, () => learnFrom(ctx, path, markerFile, flush));
    if (done === undefined) return undefined; // another hook of this session is sending it
  }
  if (flush) {
    const ended = await sendOrQueue(
      ctx,
      {
        kind: 'session_event',
        body: {
          kind: 'session_end',
          summary: `Claude Code session ended (${input.reason})`,
          details: { client: 'claude-code', session: input.session_id },
        },
      },
      Math.max(300, ctx.remainingMs(LEARN_BUDGET_MS)),
    );
    if (ended.status === 'failed') ctx.warn(`session_end event not recorded: ${ended.reason}`);
  }
  return undefined;
}

async function learnFrom(ctx: HookContext, path: string, markerFile: string, flush: boolean): Promise<true> {
  const marker = await readState<LearnMarker | undefined>(markerFile, undefined);
  const from = marker?.path === path ? marker.offset : 0;
  let read;
  try {
    read = await readTranscriptLines(path, from);
  } catch (error) {
    ctx.warn(`cannot read the transcript ${path}: ${(error as Error).message}`);
    return true;
  }
  const { conversation } = digestTranscript(read.lines);
  const enough = conversation.length >= (flush ? FLUSH_MIN_CHARS : LEARN_MIN_CHARS);
  if (!enough) {
    // Too little to learn from yet: a Stop leaves it to gather; the session's end lets it go.
    if (flush) await writeState(markerFile, { path, offset: read.endOffset, updatedAt: new Date().toISOString() });
    return true;
  }
  const occurredAt = new Date().toISOString();
  for (const part of parts(conversation).slice(0, PARTS_PER_RUN)) {
    const outcome = await sendOrQueue(
      ctx,
      { kind: 'extract', body: { transcript: part, occurredAt } },
      Math.max(500, ctx.remainingMs(LEARN_BUDGET_MS)),
    );
    if (outcome.status === 'queued') ctx.warn(`conversation queued for learning: ${outcome.reason}`);
    // Rejected for good: sending the same text again would be too; say so and move on.
    if (outcome.status === 'failed') ctx.warn(`conversation not sent for learning: ${outcome.reason}`);
  }
  await writeState(markerFile, { path, offset: read.endOffset, updatedAt: occurredAt } satisfies LearnMarker);
  return true;
}

/** The conversation in parts of at most PART_CHARS, cut between messages where it can be. */
function parts(conversation: string): string[] {
  const result: string[] = [];
  let rest = conversation;
  while (rest.length > PART_CHARS) {
    const cut = rest.lastIndexOf('\n\n', PART_CHARS);
    const at = cut > PART_CHARS / 2 ? cut : PART_CHARS;
    result.push(rest.slice(0, at));
    rest = rest.slice(at).replace(/^\n+/, '');
  }
  if (rest.trim()) result.push(rest);
  return result;
}
