import { type HookContext } from './hook-context';
import { type HookOutput, type InputOf } from './hook-input';
import { lastBriefing, queuedWriteCount, replayQueuedWrites, saveBriefing } from './hook-offline';
import { hookStateFile, pruneState, readState } from './hook-state';
import { reasonOf } from './hook-write-calls';
import { sendOrQueue } from './hook-writes';
import { type CompactionSnapshot } from './pre-compact.hook';

/** How long a session's start may wait for its briefing (Claude Code waits for the hook; the user sees it). */
export const SESSION_START_BUDGET_MS = 4_000;
/** Per-session files untouched this long belong to sessions long over. */
const STATE_MAX_AGE_MS = 14 * 24 * 3_600_000;

/**
 * SessionStart (startup, resume, clear, compact): the project's briefing, in the compact form
 * recall_context gives an agent, as additional context; after a compaction, also what the
 * PreCompact hook saved of this session. With the server away, the briefing saved by the last
 * session start, marked as such. A new session (startup) is recorded as a session_start event
 * for other agents' briefings; queued writes are replayed once the server has answered.
 */
export async function sessionStart(ctx: HookContext, input: InputOf<'SessionStart'>): Promise<HookOutput | undefined> {
  const parts: string[] = [];
  const briefing = await fetchBriefing(ctx);
  if (briefing.text) parts.push(briefing.text);
  if (input.source === 'compact') {
    const snapshot = await readState<CompactionSnapshot | undefined>(
      hookStateFile(ctx.paths, 'compactions', input.session_id),
      undefined,
    );
    if (snapshot?.text)
      parts.push(`Restored after compaction (saved by Cairn before it, ${snapshot.savedAt}):\n${snapshot.text}`);
  }
  if (briefing.online) {
    if (input.source === 'startup') {
      const event = await sendOrQueue(
        ctx,
        {
          kind: 'session_event',
          body: {
            kind: 'session_start',
            summary: `Claude Code session started in ${ctx.cwd.split(/[\\/]/).pop() ?? ctx.cwd}`,
            details: { client: 'claude-code', session: input.session_id },
          },
        },
        Math.max(200, ctx.remainingMs(SESSION_START_BUDGET_MS)),
      );
      if (event.status === 'failed') ctx.warn(`session_start event not recorded: ${event.reason}`);
    }
    const replay = await replayQueuedWrites(ctx, SESSION_START_BUDGET_MS);
    if (replay.kept > 0) ctx.warn(`${replay.kept} queued writes still wait for the server`);
  }
  await pruneState(ctx.paths, 'sessions', STATE_MAX_AGE_MS);
  await pruneState(ctx.paths, 'compactions', STATE_MAX_AGE_MS);
  if (parts.length === 0) return undefined;
  const head = `Cairn (team memory for this project: ${ctx.project.slug}, from ${ctx.project.source}). Use memory_recall before re-deriving a decision; memory_store what others should know.`;
  return {
    hookSpecificOutput: { hookEventName: 'SessionStart', additionalContext: [head, ...parts].join('\n\n') },
  };
}

async function fetchBriefing(ctx: HookContext): Promise<{ text?: string; online: boolean }> {
  try {
    const briefing = await ctx.http.send(
      'post',
      '/v1/projects/{project}/context',
      { project: ctx.project.slug },
      { format: 'compact', timezone: localTimeZone() },
      ctx.remainingMs(SESSION_START_BUDGET_MS),
    );
    await saveBriefing(ctx, briefing.text);
    return { text: briefing.text, online: true };
  } catch (error) {
    const saved = await lastBriefing(ctx);
    const queued = await queuedWriteCount(ctx);
    const waiting = queued > 0 ? `; ${queued} writes queued` : '';
    ctx.warn(`no briefing from the server (${reasonOf(error)})${saved ? ', using the last one saved' : ''}${waiting}`);
    if (!saved) return { online: false };
    return {
      text: `(Cairn is unreachable: this is the briefing saved at ${saved.savedAt}, not current.)\n${saved.text}`,
      online: false,
    };
  }
}

/** The machine's IANA time zone, for the briefing's local time; UTC when it has none. */
function localTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && !/^[+-]/.test(zone) ? zone : 'UTC';
}
