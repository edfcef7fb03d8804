import { CairnError } from './cairn-error';

/** How long a client is asked to wait before retrying after a connection-level failure. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

/**
 * 503 with `Retry-After`: a dependency the request needs is unreachable for the moment (a
 * PostgreSQL restart, a dropped connection). The request can be retried as it was.
 */
export class ServiceUnavailableError extends CairnError {
  constructor(message: string, retryAfterSeconds = UNAVAILABLE_RETRY_AFTER_SECONDS) {
    super(503, 'unavailable', message, { retryAfterSeconds }, { 'Retry-After': String(retryAfterSeconds) });
  }
}

/**
 * SQLSTATEs meaning the server went away or refused the session, not that the query was
 * wrong: admin_shutdown, crash_shutdown, cannot_connect_now (57P01-03), and class 08
 * (connection exception).
 */
const CONNECTION_SQLSTATE = /^(57P0[123]|08[0-9A-Z]{3})$/;
/** Socket-level failures of the driver, when the server cannot be reached at all. */
const CONNECTION_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH']);
/**
 * node-postgres and its pool report these without a code: a connection that dropped under a
 * query, a checked-out client that is unusable, and the pool's connect timeout.
 */
const CONNECTION_MESSAGES = [
  /^Connection terminated/,
  /^Client has encountered a connection error and is not queryable/,
  /^Client was closed and is not queryable/,
  /^timeout exceeded when trying to connect/,
  /^Connection ended unexpectedly/,
];

/** TypeORM's errors for a statement on a connection it released (see isConnectionFailure). */
const RELEASED_RUNNER_ERRORS = new Set(['QueryRunnerAlreadyReleasedError', 'QueryRunnerProviderAlreadyReleasedError']);

/**
 * True when an error (or what it wraps: TypeORM's `driverError`, a `cause`, an
 * AggregateError of connection attempts) is a database connection failure that a retry
 * may not meet, as opposed to a bug or bad input, which stay 500/400.
 */
export function isConnectionFailure(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const { code, message, driverError, cause, errors } = error as {
    code?: unknown;
    message?: unknown;
    driverError?: unknown;
    cause?: unknown;
    errors?: unknown;
  };
  if (typeof code === 'string' && (CONNECTION_SQLSTATE.test(code) || CONNECTION_ERRNO.has(code))) return true;
  // TypeORM releases a transaction's connection when it errors (the server went away under it,
  // e.g. terminated it between two statements during `pg_ctl stop`); the transaction's next
  // statement, often its COMMIT, then fails with one of these instead of the connection error.
  if (error instanceof Error && RELEASED_RUNNER_ERRORS.has(error.name)) return true;
  if (typeof message === 'string' && CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return true;
  if (Array.isArray(errors) && errors.some((inner) => isConnectionFailure(inner, depth + 1))) return true;
  return isConnectionFailure(driverError, depth + 1) || isConnectionFailure(cause, depth + 1);
}
