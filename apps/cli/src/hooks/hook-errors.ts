import { CliError, ExitCode } from '../cli-error';

/** Away, late, overloaded or the token refused: the same write will be good later, so it is queued. */
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
