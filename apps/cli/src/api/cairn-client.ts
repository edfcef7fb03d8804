import createClient, { type Client } from 'openapi-fetch';
import { errorFromResponse, unreachable } from './api-errors';
import { type paths } from './openapi';

// Where the errors are made: kept in their own module so the hooks use them without openapi-fetch.
export { type ErrorAnswer, errorFromResponse, unreachable } from './api-errors';

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

/**
 * The data of a successful openapi-fetch answer, or the `CliError` of a failed one:
 * `const memory = await ok(api.GET(...))`.
 */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  const { data, error, response } = await call;
  if (!response.ok) throw errorFromResponse(response, error);
  return data as T;
}
