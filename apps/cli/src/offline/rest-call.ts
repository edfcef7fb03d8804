import { type CairnApi } from '../api/cairn-client';
import { type BodyOf, type PathParams, type QueryOf, type RestMethod, type RestPath } from '../api/rest-types';

/**
 * One REST call as data: built once, checked against the OpenAPI document (`restCall`), and
 * sent by whichever client the process has — the typed openapi-fetch client of the bridge and
 * `cairn sync` (`apiTransport`), or the hooks' node:http client (hooks/hook-http.ts), which
 * keeps Node's fetch stack out of a hook's start-up. So a queued write is sent the same way
 * whoever replays it.
 */
export interface RestCall {
  readonly method: RestMethod;
  /** The path template (`/v1/projects/{project}/memories`); its placeholders are in `params`. */
  readonly path: RestPath;
  readonly params: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** What the server answered, whatever the status. */
export interface RestAnswer {
  readonly status: number;
  /** The JSON body (the answer's data, or its error body); undefined when there was none. */
  readonly body: unknown;
  readonly header: (name: string) => string | null;
}

/**
 * Sends a call and resolves with the answer whatever its status; rejects only when there is
 * none, with the CliError(unavailable) of the REST client (network error, timeout).
 * `timeoutMs` is the caller's deadline for this call (a hook's budget); a client built with a
 * deadline of its own applies that one.
 */
export interface RestTransport {
  send(call: RestCall, timeoutMs?: number): Promise<RestAnswer>;
}

/** A call of `method` on `path`, its body and query typed by the OpenAPI document. */
export function restCall<P extends RestPath, M extends RestMethod>(
  method: M,
  path: P,
  params: PathParams<P>,
  init: {
    readonly body?: BodyOf<P, M>;
    readonly query?: QueryOf<P, M>;
    readonly headers?: Record<string, string>;
  } = {},
): RestCall {
  return { method, path, params, ...init };
}

/** The `RestTransport` of the typed client (the bridge, `cairn sync`): its own deadline, user agent and errors. */
export function apiTransport(api: CairnApi): RestTransport {
  return {
    async send(call: RestCall): Promise<RestAnswer> {
      const init = { params: { path: call.params, query: call.query }, headers: call.headers, body: call.body };
      // openapi-fetch types a call by its literal path; `restCall` checked this one against the same document.
      const { response, data, error } = await api.request(call.method, call.path as never, init as never);
      return {
        status: response.status,
        body: response.ok ? data : error,
        header: (name) => response.headers.get(name),
      };
    },
  };
}
