import { type Readable, type Writable } from 'node:stream';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { type FetchLike } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  InitializeResultSchema,
  isJSONRPCErrorResponse,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { withHeadersDeadline } from './deadline-fetch';
import { describeAuthorizationFailure, type RemoteAuthorization, sendAuthorized } from './remote-auth';

/**
 * What the offline layer (offline-mode.ts) does around the relay; without one the bridge is a
 * pure relay. Every hook sees the client's own request.
 */
export interface RelayInterceptor {
  /**
   * Before a request goes out: the request to send (possibly with arguments added), or an
   * answer given locally instead (a write queued behind others still waiting for the server).
   */
  beforeSend(request: JSONRPCRequest): Promise<JSONRPCRequest | JSONRPCResponse>;
  /** The remote's answer to `request`, on its way to the client: cache it, adjust it. */
  onAnswer(request: JSONRPCRequest, answer: JSONRPCResponse): Promise<JSONRPCResponse>;
  /** The remote could not be reached for `request`: a local answer, or undefined for the usual error. */
  onUnreachable(request: JSONRPCRequest, reason: string): Promise<JSONRPCResponse | undefined>;
  /** The protocol version to carry when `initialize` was answered locally. */
  readonly protocolVersion?: string;
}

export interface BridgeOptions {
  /** The remote Streamable HTTP endpoint, e.g. `https://cairn.example.com/mcp`. */
  readonly url: URL;
  /** A session token, sent as `Authorization: Bearer …` on every request; never logged. */
  readonly token?: string;
  /** Or OAuth (`cairn login --oauth`): the SDK's transport presents, refreshes and renews the access token. */
  readonly authorization?: RemoteAuthorization;
  /** Diagnostics (stdout carries only protocol messages); defaults to stderr. */
  readonly log?: (line: string) => void;
  /** For tests; defaults to the global fetch. */
  readonly fetch?: FetchLike;
  /** How long to wait for the remote's response headers before counting it unreachable (default 15 s). */
  readonly headersTimeoutMs?: number;
  /** The offline layer; absent: a pure relay. */
  readonly interceptor?: RelayInterceptor;
}

export interface Bridge {
  /** Waits for answers still in flight, then closes both sides. */
  close(): Promise<void>;
  /** Settles once the bridge has closed (stdin ended or `close()` called). */
  readonly closed: Promise<void>;
}

/** JSON-RPC code for a request the remote side refused at the HTTP layer (server-defined range). */
const HTTP_REFUSED = -32000;
/** How long a closing bridge waits for answers still owed to the stdio client. */
const DRAIN_TIMEOUT_MS = 30_000;
const DEFAULT_HEADERS_TIMEOUT_MS = 15_000;

/**
 * A stdio MCP server on one side and a Streamable HTTP MCP client on the other, both the
 * SDK's own transports: each message read from `stdin` is POSTed to the remote endpoint with
 * the session token or the OAuth access token (remote-auth.ts), and every message the remote
 * answers is written to `stdout`. The relay keeps three promises:
 * - an HTTP refusal (401, 403, 429, …) of a request is answered on stdout as a JSON-RPC error
 *   for that request id, so the stdio client never waits forever, and explained on stderr;
 * - the protocol version the remote chose at `initialize` is sent on later requests
 *   (`MCP-Protocol-Version`), as the SDK's Client would do;
 * - when stdin ends, answers still in flight are delivered before the bridge closes.
 * With an interceptor, a request the remote cannot be reached for (network error, no headers
 * within the deadline, 502/503/504) is offered to it for a local answer first.
 */
export async function startBridge(stdin: Readable, stdout: Writable, options: BridgeOptions): Promise<Bridge> {
  const log = options.log ?? ((line: string) => process.stderr.write(`cairn mcp: ${line}\n`));
  const interceptor = options.interceptor;
  const local = new StdioServerTransport(stdin, stdout);
  const remote = new StreamableHTTPClientTransport(options.url, {
    ...(options.token ? { requestInit: { headers: { Authorization: `Bearer ${options.token}` } } } : {}),
    authProvider: options.authorization,
    fetch: withHeadersDeadline(options.fetch ?? fetch, options.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS),
  });
  const inFlight = new Set<Promise<void>>();
  /** Requests relayed and not answered yet (an SSE answer can arrive after the POST resolved). */
  const unanswered = new Map<RequestId, JSONRPCRequest>();
  /**
   * The SDK's send() hands its failure to `onerror` and then throws it; relayToRemote explains
   * a thrown one (with a hint, and as a JSON-RPC error for the client), so `onerror` must not
   * report the same failure a second time.
   */
  const explained = new WeakSet<object>();
  let closing: Promise<void> | undefined;
  let markClosed: () => void = () => undefined;
  const closed = new Promise<void>((resolve) => (markClosed = resolve));
  let remoteVersionSet = false;

  const answerLocally = async (message: JSONRPCResponse): Promise<void> => {
    if (message.id !== undefined) unanswered.delete(message.id);
    await local.send(message);
  };

  const relayToRemote = async (original: JSONRPCMessage): Promise<void> => {
    let message = original;
    if (isJSONRPCRequest(message) && interceptor) {
      const prepared = await interceptor.beforeSend(message);
      if (!isJSONRPCRequest(prepared)) return answerLocally(prepared);
      message = prepared;
    }
    if (isJSONRPCRequest(message)) unanswered.set(message.id, message);
    if (!remoteVersionSet && interceptor?.protocolVersion && !isInitialize(message)) {
      // initialize was answered from the cache: later requests still say which version was agreed.
      remote.setProtocolVersion(interceptor.protocolVersion);
    }
    try {
      await sendAuthorized(remote, message, options.authorization);
    } catch (error) {
      if (typeof error === 'object' && error !== null) explained.add(error);
      const refusal = describeRefusal(error);
      if (refusal.unreachable && interceptor) {
        if (!isJSONRPCRequest(message)) return; // a notification the server will not miss
        const offline = await interceptor.onUnreachable(message, refusal.message);
        if (offline) return answerLocally(offline);
      }
      log(refusal.explanation);
      if (isJSONRPCRequest(message)) {
        await answerLocally({
          jsonrpc: '2.0',
          id: message.id,
          error: { code: refusal.code, message: refusal.message, data: refusal.data },
        });
      }
    }
  };

  const relayToLocal = async (message: JSONRPCMessage): Promise<void> => {
    let outgoing = message;
    if (isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message)) {
      const request = message.id === undefined ? undefined : unanswered.get(message.id);
      if (message.id !== undefined) unanswered.delete(message.id);
      if (request?.method === 'initialize' && isJSONRPCResultResponse(message)) {
        const result = InitializeResultSchema.safeParse(message.result);
        if (result.success) {
          remote.setProtocolVersion(result.data.protocolVersion);
          remoteVersionSet = true;
        }
      }
      if (request && interceptor) outgoing = await interceptor.onAnswer(request, message);
    }
    await local.send(outgoing);
  };

  const track = (work: Promise<void>) => {
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  };
  local.onmessage = (message) =>
    track(relayToRemote(message).catch((error: unknown) => log(`could not relay: ${errorText(error)}`)));
  local.onerror = (error) => log(`unreadable message on stdin: ${errorText(error)}`);
  remote.onmessage = (message) =>
    track(relayToLocal(message).catch((error: unknown) => log(`could not write to stdout: ${errorText(error)}`)));
  remote.onerror = (error) => {
    // Closing aborts whatever the SDK still had open (its optional GET stream): not news.
    if (closing && error.name === 'AbortError') return;
    // The person was sent to the browser: sendAuthorized waits for them, and says so if it fails.
    if (options.authorization && error instanceof UnauthorizedError) return;
    // A failed send() throws right after this call: let relayToRemote's catch claim it first.
    setImmediate(() => {
      if (!explained.has(error)) log(`remote endpoint: ${errorText(error)}`);
    });
  };

  const close = (): Promise<void> => {
    closing ??= (async () => {
      const deadline = Date.now() + DRAIN_TIMEOUT_MS;
      while ((inFlight.size > 0 || unanswered.size > 0) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      if (unanswered.size > 0) log(`closing with ${unanswered.size} request(s) unanswered by the remote endpoint`);
      await remote.close();
      await local.close();
      markClosed();
    })();
    return closing;
  };

  await remote.start();
  await local.start();
  stdin.once('end', () => void close());
  return { close, closed };
}

function isInitialize(message: JSONRPCMessage): boolean {
  return isJSONRPCRequest(message) && message.method === 'initialize';
}

interface Refusal {
  readonly code: number;
  readonly message: string;
  readonly data: Record<string, unknown>;
  readonly explanation: string;
  /** Network error, no answer in time, or 502/503/504: the offline layer may answer instead. */
  readonly unreachable: boolean;
}

/** HTTP statuses that mean the server (or the proxy before it) is away, not that it refused. */
const UNREACHABLE_STATUSES = new Set([502, 503, 504]);

/** Turns a failed POST into the JSON-RPC error the stdio client sees and a hint for its user. */
function describeRefusal(error: unknown): Refusal {
  const authorization = describeAuthorizationFailure(error);
  if (authorization) {
    // Not unreachable: the offline layer must not answer for a server that wants a new authorization.
    return {
      code: HTTP_REFUSED,
      message: authorization,
      data: { httpStatus: 401 },
      explanation: authorization,
      unreachable: false,
    };
  }
  if (!(error instanceof StreamableHTTPError)) {
    const message = `Cannot reach the remote MCP endpoint: ${errorText(error)}`;
    return { code: HTTP_REFUSED, message, data: {}, explanation: message, unreachable: true };
  }
  const status = error.code;
  // The gateway answers refusals with a JSON-RPC error body; keep its code and message.
  const body = parseErrorBody(error.message);
  const message = body?.message ?? `HTTP ${status ?? '?'}: ${error.message.slice(0, 300)}`;
  const hint =
    status === 401
      ? ' (check CAIRN_TOKEN, or run `cairn login --oauth` again: the token may be missing, expired or revoked)'
      : status === 403
        ? " (the token's role or project scope does not allow this)"
        : status === 429
          ? ' (rate limited; the client may retry later)'
          : '';
  return {
    code: body?.code ?? HTTP_REFUSED,
    message,
    data: { httpStatus: status, ...(body?.data ?? {}) },
    explanation: `remote refused a request with HTTP ${status ?? '?'}: ${message}${hint}`,
    unreachable: status !== undefined && UNREACHABLE_STATUSES.has(status),
  };
}

function parseErrorBody(text: string): { code: number; message: string; data?: Record<string, unknown> } | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  try {
    const parsed = JSON.parse(text.slice(start)) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    const { code, message, data } = parsed.error ?? {};
    if (typeof code !== 'number' || typeof message !== 'string') return undefined;
    return { code, message, data: typeof data === 'object' && data ? (data as Record<string, unknown>) : undefined };
  } catch {
    return undefined;
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
