import { CliError, ExitCode } from '../cli-error';
import { type HookHttp } from './hook-http';

export type SessionEventKind = 'file_written' | 'error' | 'decision' | 'session_start' | 'session_end' | 'custom';

/** A document for the project knowledge base, as `POST …/kb/documents` takes it. */
export interface KbDocumentBody {
  readonly source: string;
  readonly title?: string;
  readonly text: string;
  readonly sourceType: 'internal' | 'external';
}

/**
 * Every write a hook makes, in the shape of its REST call. docs/hooks.md lists what each hook
 * sends; nothing is sent that is not one of these.
 */
export type HookWrite =
  | {
      readonly kind: 'session_event';
      readonly body: {
        readonly kind: SessionEventKind;
        readonly summary: string;
        readonly details?: Record<string, unknown>;
      };
    }
  | { readonly kind: 'remember'; readonly key: string; readonly value: string; readonly importance: number }
  | { readonly kind: 'session_summary'; readonly text: string }
  | { readonly kind: 'kb_document'; readonly body: KbDocumentBody }
  | { readonly kind: 'extract'; readonly body: { readonly transcript: string; readonly occurredAt?: string } };

/** One write as its REST call; the answer's body, or a CliError. */
export async function sendWrite(
  http: HookHttp,
  project: string,
  write: HookWrite,
  timeoutMs: number,
): Promise<unknown> {
  switch (write.kind) {
    case 'session_event':
      return http.send('post', '/v1/projects/{project}/events', { project }, write.body, timeoutMs);
    case 'remember':
      return http.send(
        'put',
        '/v1/projects/{project}/working-memory/{key}',
        { project, key: write.key },
        { value: write.value, importance: write.importance },
        timeoutMs,
      );
    case 'session_summary':
      return http.send('post', '/v1/projects/{project}/session/summary', { project }, { text: write.text }, timeoutMs);
    case 'kb_document':
      return http.send('post', '/v1/projects/{project}/kb/documents', { project }, write.body, timeoutMs);
    case 'extract':
      return http.send('post', '/v1/projects/{project}/extract', { project }, write.body, timeoutMs);
  }
}

/** Away, late, overloaded or the token refused: the same write will be good later. */
export function worthQueueing(error: unknown): boolean {
  if (!(error instanceof CliError)) return false;
  if (error.exitCode === ExitCode.unavailable) return true;
  return error.exitCode === ExitCode.refused && error.details.status === 401;
}

/** One line for stderr: the server's own message and status, or why it could not be reached. */
export function reasonOf(error: unknown): string {
  if (error instanceof CliError) {
    const status = typeof error.details.status === 'number' ? ` (${error.details.status})` : '';
    return `${error.message}${status}`;
  }
  return error instanceof Error ? error.message : String(error);
}
