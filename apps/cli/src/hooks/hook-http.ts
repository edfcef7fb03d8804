import { request as httpRequest, type IncomingMessage, STATUS_CODES } from 'node:http';
import { errorFromResponse, unreachable } from '../api/api-errors';
import { type AnswerOf, type BodyOf, type PathParams, type RestMethod, type RestPath } from '../api/rest-types';
import { type RestAnswer, type RestCall, restCall, type RestTransport } from '../offline/rest-call';

/**
 * The hooks' REST client: the same paths and bodies as the typed client of the other commands
 * (types from the committed OpenAPI document), sent with node:http instead of fetch. A hook runs
 * on every prompt, and Node's fetch loads its HTTP stack (undici) on first use: ~60 ms measured,
 * a quarter of the hook's whole budget, where node:http costs ~10. Errors are the same
 * CliErrors as the typed client's (errorFromResponse, unreachable). It is also the transport
 * the hooks replay the offline queue with (`RestTransport`), so a replay costs no fetch either.
 */
const BODY_LIMIT = 16 * 1024 * 1024;
/** A replayed call with no deadline of its own (the hooks always give one). */
const DEFAULT_TIMEOUT_MS = 10_000;

export class HookHttp implements RestTransport {
  constructor(
    private readonly baseUrl: URL,
    private readonly token: string,
    private readonly userAgent: string,
  ) {}

  /** One typed call: its answer's JSON, or a CliError (the server's error, or why it could not be reached in `timeoutMs`). */
  async request<P extends RestPath, M extends RestMethod>(
    method: M,
    path: P,
    params: PathParams<P>,
    body: BodyOf<P, M> | undefined,
    timeoutMs: number,
  ): Promise<AnswerOf<P, M>> {
    return (await this.call(restCall(method, path, params, { body }), timeoutMs)) as AnswerOf<P, M>;
  }

  /** One call's JSON answer, or a CliError (the server's error, or why it could not be reached in `timeoutMs`). */
  async call(call: RestCall, timeoutMs: number): Promise<unknown> {
    const answer = await this.send(call, timeoutMs);
    if (answer.status >= 200 && answer.status < 300) return answer.body;
    throw errorFromResponse(
      { status: answer.status, statusText: STATUS_CODES[answer.status] ?? '', headers: { get: answer.header } },
      answer.body,
    );
  }

  /** One call, answered whatever its status; a CliError(unavailable) when no answer came within `timeoutMs`. */
  async send(call: RestCall, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<RestAnswer> {
    const url = this.urlOf(call);
    const payload = call.body === undefined ? undefined : Buffer.from(JSON.stringify(call.body));
    const deadline = Math.max(1, Math.round(timeoutMs));
    // TLS costs ~17 ms to load: only for an https server.
    const send = url.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
    return new Promise((done, fail) => {
      const request = send(
        url,
        {
          method: call.method.toUpperCase(),
          headers: {
            ...call.headers,
            authorization: `Bearer ${this.token}`,
            ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
            accept: 'application/json',
            'user-agent': this.userAgent,
          },
          timeout: deadline,
        },
        (response) => {
          readAnswer(response).then(
            (answer) => {
              clearTimeout(timer);
              done(answer);
            },
            (error: unknown) => {
              clearTimeout(timer);
              fail(unreachable(this.baseUrl, error, deadline));
            },
          );
        },
      );
      // One deadline for the whole exchange, answer included (the socket timeout is only idle time).
      const timer = setTimeout(
        () => request.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })),
        deadline,
      );
      request.on('timeout', () => request.destroy(Object.assign(new Error('timeout'), { name: 'TimeoutError' })));
      request.on('error', (error) => {
        clearTimeout(timer);
        fail(unreachable(this.baseUrl, error, deadline));
      });
      request.end(payload);
    });
  }

  private urlOf(call: RestCall): URL {
    const resolved = call.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(call.params[name] ?? ''));
    const url = new URL(`${this.baseUrl.pathname.replace(/\/+$/, '')}${resolved}`, this.baseUrl);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    return url;
  }
}

async function readAnswer(response: IncomingMessage): Promise<RestAnswer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new Error(`answer over ${BODY_LIMIT} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return {
    status: response.statusCode ?? 0,
    body,
    header: (name) => {
      const value = response.headers[name.toLowerCase()];
      return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
    },
  };
}
