import { CliError, ExitCode } from '../cli-error';

const AWAY_STATUSES = new Set([502, 503, 504]);

/**
 * True when an error of the REST client means the server is away (a network error, no answer
 * within the deadline, 502/503/504) — when a hook answers from the cache and queues its writes.
 * A 4xx, a 429 or a 500 is an answer: pass it on, do not queue behind it.
 */
export function isUnreachable(error: unknown): boolean {
  if (!(error instanceof CliError) || error.exitCode !== ExitCode.unavailable) return false;
  const status = error.details.status;
  return typeof status !== 'number' || AWAY_STATUSES.has(status);
}
