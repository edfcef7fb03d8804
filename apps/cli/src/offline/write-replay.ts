import { type CairnApi } from '../api/cairn-client';
import { type components } from '../api/openapi';
import { CliError } from '../cli-error';
import { type MemoryView } from './memory-cache.repository';
import { type OfflineStore } from './offline-store';
import { describeWrite, type QueuedWrite, type WriteOperation } from './write-operations';

type Schemas = components['schemas'];

/** What became of one queued write in a replay. */
export interface ReplayedWrite {
  readonly seq: number;
  readonly project: string;
  readonly description: string;
  /**
   * stored: the server applied it; already_applied: its effect was there (a repeat under its
   * idempotency key, a forget of a key already gone); conflict / rejected: held in the queue.
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
  /** Why the replay stopped before the end of the queue: the server away, rate limiting, a refused token. */
  readonly stopped?: { readonly reason: string; readonly unavailable: boolean };
}

interface Answer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Headers;
}

/**
 * Replays the identity's pending writes, oldest first, one at a time, so the server sees them
 * in the order they were made. Each answer decides: applied → out of the queue (its memory into
 * the cache); 409 → held as a conflict, never retried over the newer state; 400/403/404/413/422
 * → held as rejected with the server's reason; unreachable, 5xx, 429 or 401 → the replay stops
 * and the write stays pending where it is (later ones wait behind it).
 */
export async function replayQueue(store: OfflineStore, api: CairnApi): Promise<ReplayReport> {
  const writes: ReplayedWrite[] = [];
  let stopped: ReplayReport['stopped'];
  for (let write = store.queue.nextPending(); write; write = store.queue.nextPending()) {
    let answer: Answer;
    try {
      answer = await send(api, write);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      store.queue.recordAttempt(write.seq, reason);
      stopped = { reason, unavailable: error instanceof CliError };
      if (!(error instanceof CliError)) throw error;
      break;
    }
    const outcome = await settle(store, api, write, answer);
    if (outcome === 'retry') {
      const reason = `HTTP ${answer.status}: ${errorOf(answer.body).message}`;
      store.queue.recordAttempt(write.seq, reason);
      stopped = { reason, unavailable: answer.status !== 401 };
      break;
    }
    writes.push(outcome);
  }
  return { writes, pending: store.queue.counts().pending, stopped };
}

async function settle(
  store: OfflineStore,
  api: CairnApi,
  write: QueuedWrite,
  answer: Answer,
): Promise<ReplayedWrite | 'retry'> {
  const base = { seq: write.seq, project: write.project, description: describeWrite(write.operation) };
  const { status } = answer;
  const error = errorOf(answer.body);
  if (status < 300) {
    const memory = (answer.body as { memory?: MemoryView } | undefined)?.memory;
    applyToCache(store, write, memory);
    store.queue.complete(write.seq);
    const replayed = answer.headers?.get('idempotency-replayed') === 'true';
    return { ...base, outcome: replayed ? 'already_applied' : 'stored', ...(memory ? { memory } : {}) };
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
    if (write.operation.kind === 'memory_update' && (await alreadyUpdated(api, write.project, write.operation))) {
      store.queue.complete(write.seq);
      return { ...base, outcome: 'already_applied', reason: 'the memory already has these values' };
    }
    store.queue.hold(write.seq, 'conflict', error.message, detail);
    return { ...base, outcome: 'conflict', reason: error.message };
  }
  store.queue.hold(write.seq, 'rejected', error.message, detail);
  return { ...base, outcome: 'rejected', reason: error.message };
}

function applyToCache(store: OfflineStore, write: QueuedWrite, memory: MemoryView | undefined): void {
  if (memory) store.memories.put(write.project, [memory], 'write');
  if (write.operation.kind === 'memory_delete') store.memories.remove(write.operation.id);
}

/** The REST call of each kind of write, with what makes its repeat safe (write-operations.ts). */
async function send(api: CairnApi, write: QueuedWrite): Promise<Answer> {
  const project = write.project;
  const op: WriteOperation = write.operation;
  const answer = ({ response, data, error }: { response: Response; data?: unknown; error?: unknown }): Answer => ({
    status: response.status,
    body: response.ok ? data : error,
    headers: response.headers,
  });
  switch (op.kind) {
    case 'memory_store':
      return answer(
        await api.POST('/v1/projects/{project}/memories', {
          params: { path: { project } },
          headers: { 'Idempotency-Key': write.idempotencyKey },
          body: op.body as unknown as Schemas['StoreMemoryDto'],
        }),
      );
    case 'memory_update':
      return answer(
        await api.PATCH('/v1/projects/{project}/memories/{id}', {
          params: { path: { project, id: op.id } },
          body: { ...op.body, expectedVersion: op.expectedVersion },
        }),
      );
    case 'memory_delete':
      return answer(
        await api.DELETE('/v1/projects/{project}/memories/{id}', {
          params: { path: { project, id: op.id }, query: { expectedVersion: op.expectedVersion } },
        }),
      );
    case 'remember':
      return answer(
        await api.PUT('/v1/projects/{project}/working-memory/{key}', {
          params: { path: { project, key: op.key } },
          body: { value: op.value, ...(op.importance === undefined ? {} : { importance: op.importance }) } as never,
        }),
      );
    case 'forget':
      return answer(
        await api.DELETE('/v1/projects/{project}/working-memory/{key}', { params: { path: { project, key: op.key } } }),
      );
    case 'session_event':
      return answer(
        await api.POST('/v1/projects/{project}/events', {
          params: { path: { project } },
          body: { ...op.body, idempotencyKey: write.idempotencyKey } as unknown as Schemas['RecordSessionEventDto'],
        }),
      );
  }
}

/** True when the memory already holds every value the update sets (so applying it again changes nothing). */
async function alreadyUpdated(
  api: CairnApi,
  project: string,
  op: Extract<WriteOperation, { kind: 'memory_update' }>,
): Promise<boolean> {
  const { data, response } = await api.GET('/v1/projects/{project}/memories/{id}', {
    params: { path: { project, id: op.id } },
  });
  if (!response.ok || !data) return false;
  const current = data as unknown as Record<string, unknown>;
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
