import { type HookContext } from './hook-context';
import { reasonOf } from './hook-errors';
import { type HookOutput, type InputOf } from './hook-input';
import { hookStateFile, pruneState, readState } from './hook-state';
import { pendingIn, replayFirst, sendOrQueue } from './hook-writes';
import { type CompactionSnapshot } from './pre-compact.hook';

/** How long a session's start may wait for its briefing (Claude Code waits for the hook; the user sees it). */
export const SESSION_START_BUDGET_MS = 4_000;
/** Replaying the queue stops starting calls by then (from process start), leaving time for the session's own event. */
const REPLAY_DEADLINE_MS = 3_300;
/** Per-session files untouched this long belong to sessions long over. */
const STATE_MAX_AGE_MS = 14 * 24 * 3_600_000;

/**
 * SessionStart (startup, resume, clear, compact): the project's briefing, in the compact form
 * recall_context gives an agent, as additional context; after a compaction, also what the
 * PreCompact hook saved of this session. The briefing is kept in the offline store shared with
 * `cairn mcp`: with the server away, the last one saved — by a session start or by the bridge's
 * recall_context — stands in, marked as such. Once the server has answered, the writes queued
 * by the hooks or the bridge are replayed (this is the hooks' replay point); then a new session
 * (startup) is recorded as a session_start event for other agents' briefings.
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
    // The queued writes are older than this session's event: they go first.
    const access = await ctx.store();
    if ('store' in access && pendingIn(access.store) > 0) {
      const left = await replayFirst(ctx, access.store, REPLAY_DEADLINE_MS);
      // Another process (the bridge starting beside this session) replaying them is no news.
      if (left.pending > 0 && !left.busy) ctx.warn(`queued writes still wait for the server: ${left.why}`);
    }
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
  const project = ctx.project.slug;
  let answer;
  try {
    answer = await ctx.http.request(
      'post',
      '/v1/projects/{project}/context',
      { project },
      { format: 'compact', timezone: localTimeZone() },
      ctx.remainingMs(SESSION_START_BUDGET_MS),
    );
  } catch (error) {
    return savedBriefing(ctx, reasonOf(error));
  }
  // Kept as the bridge keeps recall_context's answer (the compact text, and the structured copy
  // without the text and the review outcomes), so either serves the other's offline.
  const { text, reviewOutcomes: _toldInText, ...structured } = answer;
  const access = await ctx.store({ timeoutMs: Math.max(200, ctx.remainingMs(SESSION_START_BUDGET_MS)) });
  try {
    if (!('store' in access)) throw new Error(access.problem);
    access.store.saved.saveBriefing(project, { text, structured });
  } catch (error) {
    ctx.warn(`the briefing is not kept for offline use: ${reasonOf(error)}`);
  }
  return { text, online: true };
}

/** The last briefing saved for this project (by a session start or the bridge), marked as not current. */
async function savedBriefing(ctx: HookContext, reason: string): Promise<{ text?: string; online: boolean }> {
  const access = await ctx.store();
  let saved;
  try {
    saved = 'store' in access ? access.store.saved.briefing(ctx.project.slug) : undefined;
  } catch (error) {
    ctx.warn(`the saved briefing cannot be read: ${reasonOf(error)}`);
  }
  const pending = 'store' in access ? pendingIn(access.store) : 0;
  const waiting = pending > 0 ? `; ${pending} writes queued` : '';
  ctx.warn(`no briefing from the server (${reason})${saved ? ', using the last one saved' : ''}${waiting}`);
  if (!saved) return { online: false };
  const at = new Date(saved.fetchedAt).toISOString();
  return {
    text: `(Cairn is unreachable: this is the briefing saved at ${at}, not current.)\n${saved.text}`,
    online: false,
  };
}

/** The machine's IANA time zone, for the briefing's local time; UTC when it has none. */
function localTimeZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && !/^[+-]/.test(zone) ? zone : 'UTC';
}
