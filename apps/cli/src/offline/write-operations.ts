import { type components } from '../api/openapi';

type Schemas = components['schemas'];

/**
 * The writes the queue holds while the server is away, each in the shape its REST call takes
 * (write-calls.ts), with what makes its replay safe (docs/cli.md "How each write is replayed").
 * The bridge queues the first six (its write tools); the Claude Code hooks queue session
 * events, working memory and the last three.
 * - memory_store: an idempotency key (`Idempotency-Key`): a repeat stores once;
 * - memory_update / memory_delete: the version the writer last saw (`expectedVersion`): if the
 *   memory moved since, the server answers 409 and the write is held as a conflict, never applied
 *   over someone else's change;
 * - remember / forget: working memory is the agent's own and keyed: setting or removing a key
 *   twice leaves the same state (a forget of a key already gone is done, not an error);
 * - session_event: an idempotency key (the event's id derives from it on the server);
 * - kb_document: the knowledge base keeps the same text of a source once (a repeat is answered
 *   `duplicate` with the first copy);
 * - session_summary: an idempotency key (the archived copy's source is named by it, so a repeat
 *   is the same text of the same source);
 * - extract: the server answers the same text from the same token with the same `occurredAt`
 *   within a day with the request it already has (`reused`).
 * Stored as JSON in the queue: a change to these shapes must still read the old ones.
 */
export type WriteOperation =
  | { readonly kind: 'memory_store'; readonly body: Record<string, unknown> }
  | {
      readonly kind: 'memory_update';
      readonly id: string;
      readonly expectedVersion: number;
      readonly body: Record<string, unknown>;
    }
  | { readonly kind: 'memory_delete'; readonly id: string; readonly expectedVersion: number }
  | { readonly kind: 'remember'; readonly key: string; readonly value: string; readonly importance?: number }
  | { readonly kind: 'forget'; readonly key: string }
  | { readonly kind: 'session_event'; readonly body: Record<string, unknown> }
  | { readonly kind: 'kb_document'; readonly body: Schemas['IndexDocumentDto'] }
  | { readonly kind: 'session_summary'; readonly text: string }
  | { readonly kind: 'extract'; readonly body: Schemas['ExtractionInputDto'] };

export type WriteKind = WriteOperation['kind'];

export const WRITE_KINDS: readonly WriteKind[] = [
  'memory_store',
  'memory_update',
  'memory_delete',
  'remember',
  'forget',
  'session_event',
  'kb_document',
  'session_summary',
  'extract',
];

/**
 * pending: waits for the server; conflict: the server has a newer version (409), held for the
 * user; rejected: refused for good (400, 403, 404, 413, 422), held with the reason, not retried.
 */
export type QueueStatus = 'pending' | 'conflict' | 'rejected';

export interface QueuedWrite {
  /** Position in the queue: writes replay in this order. */
  readonly seq: number;
  readonly project: string;
  readonly operation: WriteOperation;
  readonly idempotencyKey: string;
  readonly status: QueueStatus;
  readonly attempts: number;
  /** Why it is held (conflict, rejection) or why the last attempt failed. */
  readonly reason: string | null;
  /** The server's answer to the last attempt (status, error code, message, correlation id). */
  readonly detail: Record<string, unknown> | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

/** A one-line description of a queued write for lists and answers (never its whole content). */
export function describeWrite(operation: WriteOperation): string {
  switch (operation.kind) {
    case 'memory_store':
      return `store "${clip(textOf(operation.body.content))}"`;
    case 'memory_update':
      return `update ${operation.id} (from v${operation.expectedVersion})`;
    case 'memory_delete':
      return `delete ${operation.id} (v${operation.expectedVersion})`;
    case 'remember':
      return `remember "${operation.key}"`;
    case 'forget':
      return `forget "${operation.key}"`;
    case 'session_event':
      return `event ${textOf(operation.body.kind)}: "${clip(textOf(operation.body.summary))}"`;
    case 'kb_document':
      return `capture "${clip(operation.body.title ?? operation.body.source)}" (${characters(operation.body.text)})`;
    case 'session_summary':
      return `session summary "${clip(operation.text)}"`;
    case 'extract':
      return `extract facts from ${characters(operation.body.transcript)} of conversation`;
  }
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function characters(text: string): string {
  return `${text.length.toLocaleString('en-US')} characters`;
}

function clip(text: string, length = 60): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}
