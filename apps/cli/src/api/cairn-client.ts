import createClient, { type Client } from 'openapi-fetch';
import { CliError, ExitCode } from '../cli-error';
import { type paths } from './openapi';

/** The typed REST client: every path, body and answer checked against the committed OpenAPI document. */
export type CairnApi = Client<paths>;

export interface ClientOptions {
  /** The REST API base (CAIRN_URL). */
  readonly baseUrl: URL;
  /** Sent as `Authorization: Bearer …`; never logged or printed. */
  readonly token?: string;
  /** Per-request deadline; hooks pass their latency budget. */
  readonly timeoutMs?: number;
  /** Shown to the server as the client (`User-Agent: cairn-cli/<version>`). */
  readonly userAgent?: string;
  /** For tests. */
  readonly fetch?: typeof globalThis.fetch;
}

export const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * A client for the Cairn REST API built on openapi-fetch with the types openapi-typescript
 * generates from `apps/api/contract/openapi.json` (`npm run cli:openapi`; a test keeps them
 * current). Network failures and timeouts surface as `CliError(unavailable)`; error answers
 * are for the caller to turn into a `CliError` with `errorFromResponse`.
 */
export function createCairnClient(options: ClientOptions): CairnApi {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const baseFetch = options.fetch ?? globalThis.fetch;
  const fetchWithDeadline = async (input: Request): Promise<Response> => {
    try {
      return await baseFetch(input, { signal: AbortSignal.any([input.signal, AbortSignal.timeout(timeoutMs)]) });
    } catch (error) {
      throw unreachable(options.baseUrl, error, timeoutMs);
    }
  };
  const headers: Record<string, string> = { 'User-Agent': options.userAgent ?? 'cairn-cli' };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  return createClient<paths>({
    baseUrl: options.baseUrl.href.replace(/\/+$/, ''),
    headers,
    fetch: fetchWithDeadline,
  });
}

/** The body every Cairn error answer carries (libs/server error-body.ts). */
interface ErrorBody {
  error?: { code?: string; message?: string; details?: unknown };
  correlationId?: string;
}

/** Turns an error answer into a `CliError` with the exit code its status means and the server's own message. */
export function errorFromResponse(response: Response, body: unknown): CliError {
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

/**
 * The data of a successful openapi-fetch answer, or the `CliError` of a failed one:
 * `const memory = await ok(api.GET(...))`.
 */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorFromResponse(response, error);
  return data as T;
}

function unreachable(baseUrl: URL, error: unknown, timeoutMs: number): CliError {
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
