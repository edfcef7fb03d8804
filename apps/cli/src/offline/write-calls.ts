import { type components } from '../api/openapi';
import { type RestCall, restCall } from './rest-call';
import { type WriteOperation } from './write-operations';

type Schemas = components['schemas'];

/** What a write needs to be sent: its project, its operation, and the key that makes its repeat safe. */
export interface WriteToSend {
  readonly project: string;
  readonly operation: WriteOperation;
  readonly idempotencyKey: string;
}

/**
 * The REST call of each kind of write, with what makes its repeat safe (write-operations.ts).
 * The one mapping from a write to the server, for the first attempt (the hooks) and every
 * replay (the bridge, `cairn sync`, the hooks), so a replayed write is the write that was made.
 */
export function restCallOf({ project, operation: op, idempotencyKey }: WriteToSend): RestCall {
  switch (op.kind) {
    case 'memory_store':
      return restCall(
        'post',
        '/v1/projects/{project}/memories',
        { project },
        {
          headers: { 'Idempotency-Key': idempotencyKey },
          // The tool's arguments as the agent gave them; the server validates them as it would the tool's.
          body: op.body as unknown as Schemas['StoreMemoryDto'],
        },
      );
    case 'memory_update':
      return restCall(
        'patch',
        '/v1/projects/{project}/memories/{id}',
        { project, id: op.id },
        { body: { ...op.body, expectedVersion: op.expectedVersion } },
      );
    case 'memory_delete':
      return restCall(
        'delete',
        '/v1/projects/{project}/memories/{id}',
        { project, id: op.id },
        { query: { expectedVersion: op.expectedVersion } },
      );
    case 'remember':
      return restCall(
        'put',
        '/v1/projects/{project}/working-memory/{key}',
        { project, key: op.key },
        { body: { value: op.value, ...(op.importance === undefined ? {} : { importance: op.importance }) } },
      );
    case 'forget':
      return restCall('delete', '/v1/projects/{project}/working-memory/{key}', { project, key: op.key });
    case 'session_event':
      return restCall(
        'post',
        '/v1/projects/{project}/events',
        { project },
        { body: { ...(op.body as unknown as Schemas['RecordSessionEventDto']), idempotencyKey } },
      );
    case 'kb_document':
      return restCall('post', '/v1/projects/{project}/kb/documents', { project }, { body: op.body });
    case 'session_summary':
      return restCall(
        'post',
        '/v1/projects/{project}/session/summary',
        { project },
        { body: { text: op.text, idempotencyKey } },
      );
    case 'extract':
      return restCall('post', '/v1/projects/{project}/extract', { project }, { body: op.body });
  }
}

/** A stored memory's current state (`GET …/memories/{id}`): how a replay tells an update that already landed. */
export function memoryCall(project: string, id: string): RestCall {
  return restCall('get', '/v1/projects/{project}/memories/{id}', { project, id });
}
