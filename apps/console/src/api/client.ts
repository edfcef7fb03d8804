import createClient, { type Middleware } from 'openapi-fetch';
import { ApiError, apiErrorOf, unreachable } from './errors';
import { type paths } from './openapi';

/**
 * The typed REST client (types generated from apps/api/contract/openapi.json by
 * `npm run console:openapi`). The browser session is a cookie (same origin); every request that
 * changes something carries the session's CSRF token in `X-CSRF-Token`.
 */
let csrfToken: string | undefined;

export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Headers every request of the console sends (the CSRF token on unsafe methods). */
export function requestHeaders(method: string, headers: Headers): Headers {
  if (!SAFE_METHODS.has(method.toUpperCase()) && csrfToken) headers.set('X-CSRF-Token', csrfToken);
  return headers;
}

const csrf: Middleware = {
  onRequest({ request }) {
    requestHeaders(request.method, request.headers);
    return request;
  },
};

/**
 * Who hears of a `401` (the API clears a failed session cookie with it: the session ended
 * elsewhere, expired, or its user was disabled). GET /v1/session is how the session is checked, so
 * its own `401` is not reported.
 */
let unauthorized: (() => void) | undefined;

export function onUnauthorized(handler: (() => void) | undefined): void {
  unauthorized = handler;
}

function reportUnauthorized(url: string, status: number): void {
  if (status === 401 && new URL(url, window.location.origin).pathname !== '/v1/session') unauthorized?.();
}

const signedOut: Middleware = {
  onResponse({ request, response }) {
    reportUnauthorized(request.url, response.status);
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(csrf, signedOut);

/** The data of a successful openapi-fetch answer, or its ApiError: `const page = await ok(api.GET(...))`. */
export async function ok<T>(call: Promise<{ data?: T; error?: unknown; response: Response }>): Promise<T> {
  let answer: { data?: T; error?: unknown; response: Response };
  try {
    answer = await call;
  } catch (error) {
    throw unreachable(error);
  }
  if (!answer.response.ok) throw apiErrorOf(answer.response, answer.error);
  return answer.data as T;
}

/** A JSON request outside the generated types (the probes such as /readyz, which the OpenAPI document leaves out). */
export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers = requestHeaders(method, new Headers({ accept: 'application/json' }));
  if (body !== undefined) headers.set('content-type', 'application/json');
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    throw unreachable(error);
  }
  reportUnauthorized(path, response.status);
  const text = await response.text();
  let parsed: unknown = undefined;
  if (text) {
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
  }
  if (!response.ok) throw apiErrorOf(response, parsed);
  return parsed as T;
}

export { ApiError };
