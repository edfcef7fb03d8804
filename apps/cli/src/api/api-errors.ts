import { CliError, ExitCode } from '../cli-error';

/** The body every Cairn error answer carries (libs/server error-body.ts). */
interface ErrorBody {
  error?: { code?: string; message?: string; details?: unknown };
  correlationId?: string;
}

/** What errorFromResponse reads of an answer: a fetch Response, or the hooks' node:http answer (hooks/hook-http.ts). */
export type ErrorAnswer = Pick<Response, 'status' | 'statusText'> & { readonly headers: Pick<Headers, 'get'> };

/** Turns an error answer into a `CliError` with the exit code its status means and the server's own message. */
export function errorFromResponse(response: ErrorAnswer, body: unknown): CliError {
  const { error, correlationId } = (typeof body === 'object' && body !== null ? body : {}) as ErrorBody;
  const status = response.status;
  const message = error?.message ?? `HTTP ${status} ${response.statusText}`.trim();
  const details = {
    status,
    code: error?.code ?? null,
    correlationId: correlationId ?? response.headers.get('x-request-id'),
    ...(error?.details === undefined ? {} : { details: error.details }),
  };
  if (status === 401) {
    return new CliError(
      message,
      ExitCode.refused,
      'The token is missing, expired or revoked: run `cairn login --token …` with a valid one.',
      details,
    );
  }
  if (status === 403) {
    return new CliError(message, ExitCode.refused, "The token's role or project scope does not allow this.", details);
  }
  if (status === 404) return new CliError(message, ExitCode.notFound, undefined, details);
  if (status === 429 || status >= 500) {
    const retryAfter = response.headers.get('retry-after');
    const hint = retryAfter ? `Retry in ${retryAfter} s.` : status === 429 ? 'Rate limited; retry later.' : undefined;
    return new CliError(message, ExitCode.unavailable, hint, { ...details, retryAfter });
  }
  return new CliError(message, ExitCode.rejected, undefined, details);
}

/** A network failure or a timeout as the `CliError` every command reports it with (exit code unavailable). */
export function unreachable(baseUrl: URL, error: unknown, timeoutMs: number): CliError {
  const cause: (Error & { code?: string }) | undefined =
    error instanceof Error ? ((error.cause as Error | undefined) ?? error) : undefined;
  const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
  const reason = timedOut ? `no answer within ${timeoutMs} ms` : (cause?.message ?? String(error));
  return new CliError(
    `Cannot reach ${baseUrl.origin}: ${reason}`,
    ExitCode.unavailable,
    'Check the URL (`cairn doctor`), that the server is running, and your network or proxy.',
    { reason, code: cause?.code ?? null },
  );
}
