import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';

/** Where the browser comes back: RFC 8252 §7.3, a loopback IP literal (not `localhost`) on a port of the moment. */
const HOST = '127.0.0.1';
const PATH = '/callback';

/** Checks an authorization response once its state matched; answers why it is refused, or undefined. */
export type ResponseCheck = (params: URLSearchParams) => string | undefined;

interface Waiter {
  readonly state: string;
  readonly check: ResponseCheck;
  readonly resolve: (code: string) => void;
  readonly reject: (error: Error) => void;
  readonly timer: NodeJS.Timeout;
}

/** The authorization response was an error, or failed a check: the flow ends with this message. */
export class AuthorizationResponseError extends Error {}

/**
 * The redirect URI of a native app (RFC 8252 §7.3): an HTTP server on 127.0.0.1 and a port the
 * system picks, which the browser reaches at the end of the authorization. It answers only
 * `GET /callback` whose `state` is the one of the authorization in progress (anything else is a
 * 400 and changes nothing, so a stray or forged request cannot end the flow), hands the code to
 * the waiting flow, and shows the person a short page saying what happened.
 */
export class LoopbackCallback {
  private waiter?: Waiter;

  private constructor(private readonly server: Server) {
    server.on('request', (request, response) => this.handle(request, response));
  }

  static async listen(): Promise<LoopbackCallback> {
    const server = createServer();
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, HOST, () => resolve());
    });
    // Kept referenced: while a flow waits for the browser, this server is all that keeps the
    // process alive. Its owner closes it (the login when done, the bridge when it ends).
    return new LoopbackCallback(server);
  }

  get url(): string {
    return `http://${HOST}:${(this.server.address() as AddressInfo).port}${PATH}`;
  }

  /**
   * The code of the authorization response carrying `state`, once `check` accepts it; rejects
   * on an error response, a refused check, or when nothing came within `timeoutMs`. A new wait
   * replaces one still pending (a new authorization supersedes the old one).
   */
  waitForCode(state: string, check: ResponseCheck, timeoutMs: number): Promise<string> {
    this.waiter?.reject(new AuthorizationResponseError('superseded by a new authorization request'));
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = undefined;
        reject(new AuthorizationResponseError(`no answer from the browser within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      const settle =
        <T>(done: (value: T) => void) =>
        (value: T) => {
          clearTimeout(timer);
          this.waiter = undefined;
          done(value);
        };
      this.waiter = { state, check, resolve: settle(resolve), reject: settle(reject), timer };
    });
  }

  async close(): Promise<void> {
    this.waiter?.reject(new AuthorizationResponseError('the command ended before the authorization did'));
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(request: IncomingMessage, response: ServerResponse): void {
    const url = new URL(request.url ?? '/', `http://${HOST}`);
    const waiter = this.waiter;
    if (
      request.method !== 'GET' ||
      url.pathname !== PATH ||
      !waiter ||
      url.searchParams.get('state') !== waiter.state
    ) {
      return page(response, 400, 'This is not the answer to an authorization cairn is waiting for.');
    }
    const params = url.searchParams;
    const error = params.get('error');
    if (error) {
      const description = params.get('error_description');
      waiter.reject(
        new AuthorizationResponseError(
          `the authorization server answered ${error}${description ? `: ${description}` : ''}`,
        ),
      );
      return page(response, 200, `The authorization was not given (${error}). You can close this window.`);
    }
    const refusal = params.get('code') ? waiter.check(params) : 'the answer carries no authorization code';
    if (refusal) {
      waiter.reject(new AuthorizationResponseError(refusal));
      return page(response, 400, `cairn refused this answer: ${refusal}`);
    }
    waiter.resolve(params.get('code') as string);
    page(response, 200, 'cairn is authorized. You can close this window and go back to the terminal.');
  }
}

function page(response: ServerResponse, status: number, message: string): void {
  const escaped = message.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  response.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    // The page names the outcome only; nothing on it may be framed or run scripts.
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  });
  response.end(`<!doctype html><meta charset="utf-8"><title>cairn</title><p>${escaped}</p>\n`);
}
