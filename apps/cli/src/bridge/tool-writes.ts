import { randomUUID } from 'node:crypto';
import { type OfflineStore } from '../offline/offline-store';
import { type WriteKind, type WriteOperation } from '../offline/write-operations';

/** The MCP tools whose calls the bridge queues while the server is away (write-operations.ts says how each replays). */
export const QUEUEABLE_TOOLS: ReadonlySet<string> = new Set<WriteKind>([
  'memory_store',
  'memory_update',
  'memory_delete',
  'remember',
  'forget',
  'session_event',
]);

export type ToolArguments = Record<string, unknown>;

/** A queued write, or why this call cannot be queued (answered to the agent as a tool error). */
export type QueueableCall =
  | {
      readonly ok: true;
      readonly project: string;
      readonly operation: WriteOperation;
      readonly idempotencyKey?: string;
    }
  | { readonly ok: false; readonly message: string };

/**
 * Adds what makes a write safe to repeat before it is first sent: memory_store gets an
 * idempotency key, so a call whose answer is lost (the server stopped mid-request) and is then
 * queued and replayed stores once.
 */
export function withIdempotencyKey(tool: string, args: ToolArguments): ToolArguments {
  if (tool !== 'memory_store' || typeof args.idempotencyKey === 'string') return args;
  return { ...args, idempotencyKey: `cairn-bridge-${randomUUID()}` };
}

/**
 * The queue entry for a write tool's call: the REST body of the same write, the project it
 * names or the token's default one, and for an update or a delete the version the cache last
 * saw (the replay is refused if the memory moved since; without a known version it is not queued).
 */
export function queueableCall(store: OfflineStore, tool: string, args: ToolArguments): QueueableCall {
  const project = store.projectOf(typeof args.project === 'string' ? args.project : undefined);
  if (!project)
    return { ok: false, message: 'Name a project: this token has no default project to queue the write under' };
  const { project: _project, idempotencyKey, ...rest } = args;
  const key = typeof idempotencyKey === 'string' ? idempotencyKey : undefined;
  const text = (field: string) => (typeof rest[field] === 'string' ? rest[field] : undefined);
  switch (tool) {
    case 'memory_store':
      if (!text('content')?.trim()) return { ok: false, message: 'memory_store needs "content"' };
      return { ok: true, project, operation: { kind: 'memory_store', body: rest }, idempotencyKey: key };
    case 'memory_update':
    case 'memory_delete': {
      const id = text('id');
      if (!id) return { ok: false, message: `${tool} needs "id"` };
      const version = store.memories.get(project, id)?.memory.version;
      if (version === undefined) {
        return {
          ok: false,
          message:
            `Cannot queue ${tool} of ${id} while the server is unreachable: that memory is not in the local cache, ` +
            'so the version this change would apply to is unknown. Retry when the server is back.',
        };
      }
      const { id: _id, ...body } = rest;
      const operation: WriteOperation =
        tool === 'memory_update'
          ? { kind: 'memory_update', id, expectedVersion: version, body }
          : { kind: 'memory_delete', id, expectedVersion: version };
      return { ok: true, project, operation };
    }
    case 'remember': {
      const entry = text('key');
      const value = text('value');
      if (!entry || value === undefined) return { ok: false, message: 'remember needs "key" and "value"' };
      const importance = typeof rest.importance === 'number' ? rest.importance : undefined;
      return { ok: true, project, operation: { kind: 'remember', key: entry, value, importance } };
    }
    case 'forget': {
      const entry = text('key');
      if (!entry) return { ok: false, message: 'forget needs "key"' };
      return { ok: true, project, operation: { kind: 'forget', key: entry } };
    }
    case 'session_event':
      if (!text('kind') || !text('summary')) return { ok: false, message: 'session_event needs "kind" and "summary"' };
      return { ok: true, project, operation: { kind: 'session_event', body: rest }, idempotencyKey: key };
    default:
      return { ok: false, message: `${tool} does not work offline` };
  }
}
