import { randomUUID } from 'node:crypto';
import { type components } from '../api/openapi';
import { type OfflineStore } from '../offline/offline-store';
import { restCallOf, type WriteToSend } from '../offline/write-calls';
import { type WriteOperation } from '../offline/write-operations';
import { replayQueue, type ReplayReport } from '../offline/write-replay';
import { type HookContext, type StoreAccess } from './hook-context';
import { reasonOf, worthQueueing } from './hook-errors';

type Schemas = components['schemas'];

/**
 * Every write a hook makes, in the shape of the offline queue's operations (so one it cannot
 * send now waits in the queue `cairn mcp` and `cairn sync` replay too). docs/hooks.md lists
 * what each hook sends; nothing is sent that is not one of these.
 */
export type HookWrite =
  | { readonly kind: 'session_event'; readonly body: Omit<Schemas['RecordSessionEventDto'], 'idempotencyKey'> }
  | { readonly kind: 'remember'; readonly key: string; readonly value: string; readonly importance: number }
  | Extract<WriteOperation, { readonly kind: 'session_summary' | 'kb_document' | 'extract' }>;

export type WriteOutcome =
  | { readonly status: 'sent'; readonly answer: unknown }
  | { readonly status: 'queued'; readonly reason: string }
  | { readonly status: 'failed'; readonly reason: string };

/** Replaying the writes queued before this one may take this share of its time; the rest is its own. */
const REPLAY_SHARE = 2 / 3;

/**
 * The one way a hook writes: send now, or, when the server is away, slow or refuses the token
 * (a token can be renewed; the write stays valid), queue it in the offline store shared with
 * `cairn mcp`, to be replayed by the next SessionStart, `cairn sync` or the bridge. Writes keep
 * their order: with writes already queued, those are replayed first and this one goes behind
 * any that are left. The idempotency key is chosen before the first attempt, so an attempt whose
 * answer was lost and is then queued lands once. A write the server rejects for good (400, 403,
 * 404, 413, 422) is not queued: it would be rejected again; the outcome says why. At the queue's
 * cap the outcome says the write was not kept. Never throws.
 */
export async function sendOrQueue(ctx: HookContext, write: HookWrite, timeoutMs: number): Promise<WriteOutcome> {
  const started = performance.now();
  const deadline = started + timeoutMs;
  const toSend: WriteToSend = {
    project: ctx.project.slug,
    operation: write,
    idempotencyKey: `cairn-hook-${randomUUID()}`,
  };
  // A token seen before opens the store with no request; a new one has nothing queued yet.
  const known = await ctx.store();
  if ('store' in known && pendingIn(known.store) > 0) {
    const before = await replayFirst(ctx, known.store, started + timeoutMs * REPLAY_SHARE);
    if (before.pending > 0) return enqueue(known, toSend, before.why);
  }
  try {
    return { status: 'sent', answer: await ctx.http.call(restCallOf(toSend), deadline - performance.now()) };
  } catch (error) {
    const reason = reasonOf(error);
    if (!worthQueueing(error)) return { status: 'failed', reason };
    const access =
      'store' in known ? known : await ctx.store({ timeoutMs: Math.max(300, deadline - performance.now()) });
    return enqueue(access, toSend, reason);
  }
}

/** The queue after a replay: writes still pending, and why (`busy`: another process is replaying them now). */
export interface QueueLeft {
  readonly pending: number;
  readonly why: string;
  readonly busy: boolean;
}

/**
 * Replays what is queued (until `deadline`, a performance.now() time, or the first write that
 * must wait) through the hooks' node:http client; says on stderr what was held.
 */
export async function replayFirst(ctx: HookContext, store: OfflineStore, deadline: number): Promise<QueueLeft> {
  let report: ReplayReport;
  try {
    report = await replayQueue(store, ctx.http, { deadline });
  } catch (error) {
    return {
      pending: pendingIn(store),
      why: `the queued writes could not be replayed: ${reasonOf(error)}`,
      busy: false,
    };
  }
  warnHeld(ctx, report);
  const why = `behind ${report.pending} queued write(s)${report.stopped ? ` (${report.stopped.reason})` : ''}`;
  return { pending: report.pending, why, busy: report.stopped?.busy === true };
}

/** One stderr line when a replay held writes as conflicts or rejections (they wait in `cairn queue`). */
export function warnHeld(ctx: HookContext, report: ReplayReport): void {
  const held = report.writes.filter((write) => write.outcome === 'conflict' || write.outcome === 'rejected');
  if (held.length === 0) return;
  const first = held[0];
  ctx.warn(
    `${held.length} queued write(s) held, not sent: #${first.seq} ${first.description}: ${first.outcome}, ${first.reason ?? ''}` +
      `${held.length > 1 ? ' …' : ''} (see \`cairn queue\`)`,
  );
}

/** Writes waiting in the queue; 0 when the file cannot be read (the write is then sent, and queued only if it can be). */
export function pendingIn(store: OfflineStore): number {
  try {
    return store.queue.counts().pending;
  } catch {
    return 0;
  }
}

function enqueue(access: StoreAccess, write: WriteToSend, reason: string): WriteOutcome {
  if (!('store' in access))
    return { status: 'failed', reason: `${reason}; and it could not be queued: ${access.problem}` };
  try {
    access.store.queue.enqueue(write.project, write.operation, {
      idempotencyKey: write.idempotencyKey,
      max: access.store.queueMax,
    });
    return { status: 'queued', reason };
  } catch (error) {
    return { status: 'failed', reason: `${reason}; and it could not be queued: ${reasonOf(error)}` };
  }
}
