import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type HookContext } from './hook-context';
import { fileSafe, readState, writeState } from './hook-state';
import { type HookWrite, reasonOf, sendWrite, worthQueueing } from './hook-write-calls';

/**
 * The hooks' one door to offline storage: the write queue (queueWrite, replayQueuedWrites) and
 * the one thing they read offline, the last briefing (saveBriefing, lastBriefing).
 *
 * INTERIM, to be wired to the offline store of `cairn mcp` (apps/cli/src/offline, built beside
 * this) when both are merged: these four functions are the whole surface; nothing else in the
 * hooks touches these files. Until then: one file per queued write under
 * `<cache dir>/hooks/queue/` (named by time, so replayed in order; claimed by renaming, so two
 * hooks never send the same one), capped at QUEUE_MAX, and one briefing per identity and
 * project under `<cache dir>/hooks/briefings/`.
 */
const QUEUE_MAX = 500;

interface QueuedWrite {
  /** Whose write it is (server and token digest): replayed only with the same identity. */
  readonly identity: string;
  readonly project: string;
  readonly write: HookWrite;
  readonly queuedAt: string;
}

export class QueueFullError extends Error {
  constructor() {
    super(`the hook write queue holds ${QUEUE_MAX} writes already; this one is not kept`);
    this.name = 'QueueFullError';
  }
}

function queueDir(ctx: HookContext): string {
  return join(ctx.paths.cacheDir, 'hooks', 'queue');
}

/** Keeps `write` for the next time the server answers. Throws QueueFullError at the cap. */
export async function queueWrite(ctx: HookContext, write: HookWrite): Promise<void> {
  const dir = queueDir(ctx);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const pending = (await readdir(dir)).filter((name) => name.endsWith('.json'));
  if (pending.length >= QUEUE_MAX) throw new QueueFullError();
  const entry: QueuedWrite = {
    identity: ctx.identity,
    project: ctx.project.slug,
    write,
    queuedAt: new Date().toISOString(),
  };
  // Time first (zero-padded, so names sort in queue order), then randomness against collisions.
  const name = `${Date.now().toString().padStart(15, '0')}-${randomBytes(4).toString('hex')}`;
  const temporary = join(dir, `${name}.tmp`);
  await writeFile(temporary, JSON.stringify(entry), { mode: 0o600 });
  await rename(temporary, join(dir, `${name}.json`));
}

export interface ReplayReport {
  readonly sent: number;
  /** Still queued: the server went away again, or the time ran out. */
  readonly kept: number;
  /** Rejected for good by the server: removed, each said on stderr. */
  readonly rejected: number;
}

/**
 * Sends queued writes of this identity in order, oldest first, until `deadline` (a
 * performance.now() value) or the first failure that is worth retrying later. Called by hooks
 * once the server has answered them.
 */
export async function replayQueuedWrites(ctx: HookContext, deadline: number, limit = 50): Promise<ReplayReport> {
  const dir = queueDir(ctx);
  const names = (await readdir(dir).catch(() => [] as string[])).filter((name) => name.endsWith('.json')).sort();
  let sent = 0;
  let rejected = 0;
  let kept = names.length;
  for (const name of names.slice(0, limit)) {
    const left = deadline - performance.now();
    if (left < 50) break;
    const claimed = join(dir, `${name}.${process.pid}.sending`);
    try {
      await rename(join(dir, name), claimed);
    } catch {
      continue; // another hook took it
    }
    const entry = await readFile(claimed, 'utf8').then((text) => JSON.parse(text) as QueuedWrite);
    if (entry.identity !== ctx.identity) {
      await rename(claimed, join(dir, name));
      continue;
    }
    try {
      await sendWrite(ctx.http, entry.project, entry.write, left);
      await rm(claimed, { force: true });
      sent += 1;
      kept -= 1;
    } catch (error) {
      if (worthQueueing(error)) {
        await rename(claimed, join(dir, name));
        break;
      }
      ctx.warn(`a queued ${entry.write.kind} write from ${entry.queuedAt} was rejected: ${reasonOf(error)}`);
      await rm(claimed, { force: true });
      rejected += 1;
      kept -= 1;
    }
  }
  return { sent, kept, rejected };
}

/** Writes of this identity waiting in the queue (for the SessionStart line that says so). */
export async function queuedWriteCount(ctx: HookContext): Promise<number> {
  const names = await readdir(queueDir(ctx)).catch(() => [] as string[]);
  return names.filter((name) => name.endsWith('.json')).length;
}

interface SavedBriefing {
  readonly text: string;
  readonly savedAt: string;
}

function briefingFile(ctx: HookContext): string {
  return join(ctx.paths.cacheDir, 'hooks', 'briefings', `${fileSafe(`${ctx.identity}-${ctx.project.slug}`)}.json`);
}

/** Keeps the briefing just received, for a session that starts while the server is away. */
export async function saveBriefing(ctx: HookContext, text: string): Promise<void> {
  await writeState(briefingFile(ctx), { text, savedAt: new Date().toISOString() } satisfies SavedBriefing);
}

/** The last briefing received for this identity and project, if any. */
export async function lastBriefing(ctx: HookContext): Promise<SavedBriefing | undefined> {
  const saved = await readState<SavedBriefing | undefined>(briefingFile(ctx), undefined);
  return saved && typeof saved.text === 'string' ? saved : undefined;
}
