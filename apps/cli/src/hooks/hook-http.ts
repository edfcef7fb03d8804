import { request as httpRequest, type IncomingMessage } from 'node:http';
import { errorFromResponse, unreachable } from '../api/api-errors';
import { type paths } from '../api/openapi';

/**
 * The hooks' REST client: the same paths and bodies as the typed client of the other commands
 * (types from the committed OpenAPI document), sent with node:http instead of fetch. A hook runs
 * on every prompt, and Node's fetch loads its HTTP stack (undici) on first use: ~60 ms measured,
 * a quarter of the hook's whole budget, where node:http costs ~10. Errors are the same
 * CliErrors as the typed client's (errorFromResponse, unreachable).
 */
type Method = 'post' | 'put';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonOf<T> = T extends { content: { 'application/json': infer J } } ? J : never;

export type BodyOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { requestBody?: infer R } ? JsonOf<NonNullable<R>> : never;
export type AnswerOf<P extends keyof paths, M extends Method> =
  Operation<P, M> extends { responses: infer R } ? JsonOf<R[Extract<keyof R, 200 | 201 | 202>]> : never;
/** The `{name}` placeholders of a path, as its parameters. */
type PathParams<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? { readonly [K in N | keyof PathParams<Rest>]: string }
  : Record<never, string>;

const BODY_LIMIT = 16 * 1024 * 1024;

export class HookHttp {
  constructor(
    private readonly baseUrl: URL,
    private readonly token: string,
    private readonly userAgent: string,
  ) {}

  /** One call: its answer's JSON, or a CliError (the server's error, or why it could not be reached in `timeoutMs`). */
  async send<P extends keyof paths, M extends Method>(
    method: M,
    path: P,
    params: PathParams<P>,
    body: BodyOf<P, M>,
    timeoutMs: number,
  ): Promise<AnswerOf<P, M>> {
    const resolved = path.replace(/\{(\w+)\}/g, (_, name: string) =>
      encodeURIComponent((params as Record<string, string>)[name] ?? ''),
    );
    const url = new URL(`${this.baseUrl.pathname.replace(/\/+$/, '')}${resolved}`, this.baseUrl);
    const payload = Buffer.from(JSON.stringify(body));
    const deadline = Math.max(1, Math.round(timeoutMs));
    // TLS costs ~17 ms to load: only for an https server.
    const send = url.protocol === 'https:' ? (await import('node:https')).request : httpRequest;
    return new Promise((done, fail) => {
      const request = send(
        url,
        {
          method: method.toUpperCase(),
          headers: {
            authorization: `Bearer ${this.token}`,
            'content-type': 'application/json',
            'content-length': payload.length,
            accept: 'application/json',
            'user-agent': this.userAgent,
          },
          timeout: deadline,
        },
        (response) => {
          readBody(response).then(
            ({ status, statusText, json, headers }) => {
              clearTimeout(timer);
              if (status >= 200 && status < 300) done(json as AnswerOf<P, M>);
              else fail(errorFromResponse({ status, statusText, headers: { get: headers } }, json));
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
}

async function readBody(response: IncomingMessage): Promise<{
  status: number;
  statusText: string;
  json: unknown;
  headers: (name: string) => string | null;
}> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    size += (chunk as Buffer).length;
    if (size > BODY_LIMIT) throw new Error(`answer over ${BODY_LIMIT} bytes`);
    chunks.push(chunk as Buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? '',
    json,
    headers: (name) => {
      const value = response.headers[name.toLowerCase()];
      return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
    },
  };
}
