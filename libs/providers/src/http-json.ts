import { type z } from 'zod';
import { ProviderError } from './provider-error';

/** Pause asked of the worker when the server says nothing about when to come back. */
export const DEFAULT_BACKPRESSURE_MS = 5_000;
/** Upper bound on any pause: a queue paused for an hour by one bad header is an outage. */
export const MAX_BACKPRESSURE_MS = 60_000;
/** Lower bound: `Retry-After: 0` from an overloaded server would otherwise spin the queue. */
const MIN_BACKPRESSURE_MS = 1_000;

export interface JsonHttpOptions {
  /** Base URL without a trailing slash, e.g. `http://ollama:11434` or `https://host/v1`. */
  readonly baseUrl: string;
  /** Who we talk to, for messages: "Ollama", "OpenAI-compatible server". */
  readonly label: string;
  readonly timeoutMs: number;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface JsonRequest<T> {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly body?: unknown;
  readonly schema: z.ZodType<T>;
  readonly signal?: AbortSignal;
  /** Overrides the configured timeout (presence checks must answer well within /readyz's bound). */
  readonly timeoutMs?: number;
  /** The model concerned, named in a 404's message. */
  readonly model?: string;
}

/**
 * JSON over global `fetch`, with every failure classified as a `ProviderError`. Messages
 * name the server, the path and the status only: never request or response bodies (they
 * carry user content; some servers echo the input in validation errors) nor headers (keys).
 */
export class JsonHttp {
  /** The base URL without credentials, safe to show to operators. */
  readonly where: string;

  constructor(private readonly options: JsonHttpOptions) {
    this.where = redactUrl(options.baseUrl);
  }

  async request<T>(request: JsonRequest<T>): Promise<T> {
    const timeoutMs = request.timeoutMs ?? this.options.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    const what = `${this.options.label} ${request.method} ${request.path}`;
    let text: string;
    let response: Response;
    try {
      response = await fetch(`${this.options.baseUrl}${request.path}`, {
        method: request.method,
        headers: {
          accept: 'application/json',
          ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...this.options.headers,
        },
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal,
      });
      if (!response.ok) {
        // Free the connection for the next request; the body is not needed.
        await response.body?.cancel().catch(() => undefined);
        throw statusError(what, response, request.model);
      }
      text = await response.text();
    } catch (error) {
      if (error instanceof ProviderError) throw error;
      if (timeout.aborted) throw new ProviderError('timeout', `${what}: no answer within ${timeoutMs} ms`);
      if (request.signal?.aborted) throw new ProviderError('timeout', `${what}: cancelled`);
      // Refused, reset, DNS, socket closed mid-answer: nobody is answering there right now.
      const code = networkCode(error) ?? 'network error';
      throw new ProviderError(
        'unavailable',
        `${this.options.label} at ${this.where} is unreachable (${code})`,
        undefined,
        DEFAULT_BACKPRESSURE_MS,
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ProviderError('bad_response', `${what}: the answer is not JSON`, response.status);
    }
    const parsed = request.schema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const at = issue ? ` at ${issue.path.join('.') || '(root)'}: ${issue.message}` : '';
      throw new ProviderError('bad_response', `${what}: unexpected answer${at}`, response.status);
    }
    return parsed.data;
  }
}

function statusError(what: string, response: Response, model: string | undefined): ProviderError {
  const status = response.status;
  const retryAfter = response.headers.get('retry-after');
  if (status === 429) {
    return new ProviderError('rate_limited', `${what}: rate limited (HTTP 429)`, status, parseRetryAfter(retryAfter));
  }
  if (status === 502 || status === 503 || status === 504) {
    return new ProviderError('unavailable', `${what}: HTTP ${status}`, status, parseRetryAfter(retryAfter));
  }
  if (status === 404) {
    return new ProviderError('not_found', `${what}: ${model ? `model ${model} ` : ''}not found (HTTP 404)`, status);
  }
  if (status >= 400 && status < 500) return new ProviderError('bad_request', `${what}: HTTP ${status}`, status);
  // Other 5xx (Ollama answers 500 when a model fails to load): retried with backoff, no pause.
  return new ProviderError('unavailable', `${what}: HTTP ${status}`, status);
}

/**
 * `Retry-After` as milliseconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3), clamped
 * to [1 s, 60 s]; absent or unparseable means the default pause.
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number {
  const clamp = (ms: number) => Math.min(MAX_BACKPRESSURE_MS, Math.max(MIN_BACKPRESSURE_MS, Math.ceil(ms)));
  const trimmed = value?.trim();
  if (!trimmed) return DEFAULT_BACKPRESSURE_MS;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return clamp(Number(trimmed) * 1_000);
  // V8's Date.parse accepts almost anything ("-5" is a year); an HTTP date has a name and a time.
  const date = /[a-z]/i.test(trimmed) && /\d{2}:\d{2}:\d{2}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  return Number.isNaN(date) ? DEFAULT_BACKPRESSURE_MS : clamp(date - now);
}

/** undici wraps socket errors: `TypeError('fetch failed', { cause: { code } })`. */
function networkCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `http://user:secret@host:1234/v1` → `http://host:1234/v1`. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.username = '';
    parsed.password = '';
    return parsed.toString().replace(/\/+$/, '');
  } catch {
    return '(invalid URL)';
  }
}
