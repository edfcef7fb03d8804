import { randomUUID } from 'node:crypto';
import { CliError } from '../cli-error';
import { type MemoryView } from './memory-cache.repository';
import { type OfflineStore } from './offline-store';
import { type RestAnswer, type RestTransport } from './rest-call';
import { memoryCall, restCallOf } from './write-calls';
import { describeWrite, type QueuedWrite, type WriteOperation } from './write-operations';

/** What became of one queued write in a replay. */
export interface ReplayedWrite {
  readonly seq: number;
  readonly project: string;
  readonly description: string;
  /**
   * stored: the server applied it; already_applied: its effect was there (a repeat under its
   * idempotency key, a capture or a conversation the server already had, a forget of a key
   * already gone); conflict / rejected: held in the queue.
   */
  readonly outcome: 'stored' | 'already_applied' | 'conflict' | 'rejected';
  readonly reason?: string;
  /** The memory the server answered, for a store or an update. */
  readonly memory?: MemoryView;
}

export interface ReplayReport {
  readonly writes: ReplayedWrite[];
  /** Writes still pending after the replay. */
  readonly pending: number;
  /**
   * Why the replay stopped before the end of the queue: the server away or rate limiting
   * (`unavailable`), a refused token, the caller's time (`deadline`), or another process
   * replaying this queue now (`busy`: it goes on with the writes, in order).
   */
  readonly stopped?: { readonly reason: string; readonly unavailable: boolean; readonly busy?: boolean };
}

export interface ReplayOptions {
  /** A `performance.now()` time: no call starts after it (a hook's budget). None: until the queue is done. */
  readonly deadline?: number;
  /** How long to wait while another process replays this queue (ms; default 0: do not wait). */
  readonly waitForLockMs?: number;
}

/** A call started with less time than this would likely lose its answer: left for the next replay. */
const MIN_CALL_MS = 500;
/** The replay lease, renewed before each write: longer than any one call (the REST client's 30 s). */
const LOCK_TTL_MS = 120_000;
const LOCK_POLL_MS = 100;

/**
 * Replays the identity's pending writes, oldest first, one at a time, so the server sees them
 * in the order they were made, holding the identity's replay lease so no other process replays
 * them meanwhile (replay-lock.repository.ts). Each answer decides: applied → out of the queue
 * (its memory into the cache); 409 → held as a conflict, never retried over the newer state;
 * 400/403/404/413/422 → held as rejected with the server's reason; unreachable, 5xx, 429 or 401
 * → the replay stops and the write stays pending where it is (later ones wait behind it).
 */
export async function replayQueue(
  store: OfflineStore,
  transport: RestTransport,
  options: ReplayOptions = {},
): Promise<ReplayReport> {
  const holder = `${process.pid}:${randomUUID()}`;
  if (!(await acquire(store, holder, options))) {
    const stopped = { reason: 'another cairn process is replaying this queue now', unavailable: false, busy: true };
    return { writes: [], pending: store.queue.counts().pending, stopped };
  }
  const writes: ReplayedWrite[] = [];
  let stopped: ReplayReport['stopped'];
  try {
    for (let write = store.queue.nextPending(); write; write = store.queue.nextPending()) {
      const timeoutMs = options.deadline === undefined ? undefined : options.deadline - performance.now();
      if (timeoutMs !== undefined && timeoutMs < MIN_CALL_MS) {
        stopped = { reason: 'the time for replaying ran out', unavailable: false };
        break;
      }
      store.replayLock.acquire(holder, LOCK_TTL_MS);
      let answer: RestAnswer;
      try {
        answer = await transport.send(restCallOf(write), timeoutMs);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        store.queue.recordAttempt(write.seq, reason);
        stopped = { reason, unavailable: error instanceof CliError };
        if (!(error instanceof CliError)) throw error;
        break;
      }
      const outcome = await settle(store, transport, write, answer, options.deadline);
      if (outcome === 'retry') {
        const reason = `HTTP ${answer.status}: ${errorOf(answer.body).message}`;
        store.queue.recordAttempt(write.seq, reason);
        stopped = { reason, unavailable: answer.status !== 401 };
        break;
      }
      writes.push(outcome);
    }
  } finally {
    store.replayLock.release(holder);
  }
  return { writes, pending: store.queue.counts().pending, stopped };
}

/** Takes the replay lease, waiting up to `waitForLockMs` (and never past the deadline) for another holder. */
async function acquire(store: OfflineStore, holder: string, options: ReplayOptions): Promise<boolean> {
  const waitUntil = Math.min(
    performance.now() + (options.waitForLockMs ?? 0),
    options.deadline === undefined ? Infinity : options.deadline - MIN_CALL_MS,
  );
  for (;;) {
    if (store.replayLock.acquire(holder, LOCK_TTL_MS)) return true;
    if (performance.now() + LOCK_POLL_MS > waitUntil) return false;
    await new Promise((resume) => setTimeout(resume, LOCK_POLL_MS));
  }
}

async function settle(
  store: OfflineStore,
  transport: RestTransport,
  write: QueuedWrite,
  answer: RestAnswer,
  deadline: number | undefined,
): Promise<ReplayedWrite | 'retry'> {
  const base = { seq: write.seq, project: write.project, description: describeWrite(write.operation) };
  const { status } = answer;
  const error = errorOf(answer.body);
  if (status < 300) {
    const memory = (answer.body as { memory?: MemoryView } | undefined)?.memory;
    applyToCache(store, write, memory);
    store.queue.complete(write.seq);
    return { ...base, outcome: wasThere(answer) ? 'already_applied' : 'stored', ...(memory ? { memory } : {}) };
  }
  if (status === 401 || status === 429 || status >= 500 || error.code === 'idempotency_key_busy') return 'retry';
  const detail = { status, code: error.code ?? null, message: error.message, correlationId: error.correlationId };
  // Removing what is already gone: the state the write wanted is there.
  if (status === 404 && (write.operation.kind === 'forget' || write.operation.kind === 'memory_delete')) {
    applyToCache(store, write, undefined);
    store.queue.complete(write.seq);
    return { ...base, outcome: 'already_applied', reason: error.message };
  }
  if (status === 409) {
    // An update whose first attempt did commit (its answer lost) meets its own new version.
    if (write.operation.kind === 'memory_update') {
      const landed = await alreadyUpdated(transport, write.project, write.operation, deadline);
      if (landed === undefined) return 'retry'; // the server went away before it could say
      if (landed) {
        store.queue.complete(write.seq);
        return { ...base, outcome: 'already_applied', reason: 'the memory already has these values' };
      }
    }
    store.queue.hold(write.seq, 'conflict', error.message, detail);
    return { ...base, outcome: 'conflict', reason: error.message };
  }
  store.queue.hold(write.seq, 'rejected', error.message, detail);
  return { ...base, outcome: 'rejected', reason: error.message };
}

/**
 * The server said it already had this write: a repeat under its idempotency key, the same
 * text of a knowledge-base source (`duplicate`), the same conversation sent for extraction (`reused`).
 */
function wasThere(answer: RestAnswer): boolean {
  if (answer.header('idempotency-replayed') === 'true') return true;
  const body = (typeof answer.body === 'object' && answer.body !== null ? answer.body : {}) as Record<string, unknown>;
  return body.duplicate === true || body.reused === true;
}

function applyToCache(store: OfflineStore, write: QueuedWrite, memory: MemoryView | undefined): void {
  if (memory) store.memories.put(write.project, [memory], 'write');
  if (write.operation.kind === 'memory_delete') store.memories.remove(write.operation.id);
}

/**
 * True when the memory already holds every value the update sets (so applying it again changes
 * nothing); undefined when the server could not be asked.
 */
async function alreadyUpdated(
  transport: RestTransport,
  project: string,
  op: Extract<WriteOperation, { kind: 'memory_update' }>,
  deadline: number | undefined,
): Promise<boolean | undefined> {
  const timeoutMs = deadline === undefined ? undefined : Math.max(1, deadline - performance.now());
  let answer: RestAnswer;
  try {
    answer = await transport.send(memoryCall(project, op.id), timeoutMs);
  } catch (error) {
    if (error instanceof CliError) return undefined;
    throw error;
  }
  if (answer.status === 401 || answer.status === 429 || answer.status >= 500) return undefined;
  if (answer.status !== 200 || typeof answer.body !== 'object' || answer.body === null) return false;
  const current = answer.body as Record<string, unknown>;
  return Object.entries(op.body).every(
    ([field, value]) => field === 'reason' || JSON.stringify(current[field]) === JSON.stringify(value),
  );
}

function errorOf(body: unknown): { code?: string; message: string; correlationId?: string } {
  const { error, correlationId } = (typeof body === 'object' && body !== null ? body : {}) as {
    error?: { code?: string; message?: string };
    correlationId?: string;
  };
  return { code: error?.code, message: error?.message ?? 'no error message', correlationId };
}
