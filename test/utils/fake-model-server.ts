import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';

/** One scripted misbehaviour, consumed by the next request (to `path`, when given). */
export type FakeFailure = { readonly path?: string } & (
  | { readonly type: 'status'; readonly status: number; readonly retryAfter?: string }
  | { readonly type: 'reset' } // socket destroyed before any answer
  | { readonly type: 'hang' } // never answers (until close)
  | { readonly type: 'malformed' } // 200 with a body that is not JSON
  | { readonly type: 'dimensions'; readonly dimensions: number } // vectors of another size
  | { readonly type: 'nan' } // a `NaN` literal in the first vector, as Python's json.dumps writes it
  | { readonly type: 'reverse-order' } // OpenAI: `data` in reverse order (legal; clients must sort by index)
  | { readonly type: 'rerank-results'; readonly results: readonly unknown[] } // `/v1/rerank` or TEI's `/rerank` answers these results verbatim
);

export interface FakeChatRequest {
  readonly protocol: 'ollama' | 'openai';
  readonly model: string;
  readonly messages: { role: string; content: string }[];
  readonly json: boolean;
  readonly maxTokens: number | undefined;
  readonly temperature: number | undefined;
}

export interface FakeModelServerOptions {
  /** Size of the vectors served. */
  dimensions?: number;
  /** Model names served, as `/api/tags` and `/v1/models` list them; others get 404. */
  models?: string[];
  /** Fixed latency of every request. */
  latencyMs?: number;
  /** Extra latency per embedded text (models GPU time growing with the batch). */
  perItemLatencyMs?: number;
  /**
   * Requests worked on at once, like a model runner's parallel slots (Ollama's
   * OLLAMA_NUM_PARALLEL); later ones wait their turn in arrival order. Unlimited when unset.
   */
  slots?: number;
  /** Extra latency of chat/generate requests only (a slow chat model beside a fast embedder). */
  chatLatencyMs?: number;
  /** Chat/generate answers: a string or a function of the request. */
  chatAnswer?: string | ((request: FakeChatRequest) => string);
  /** When set, `/v1/*` requires `Authorization: Bearer <apiKey>`. */
  apiKey?: string;
  /** The rerank relevance score of one document for the query (both dialects); default {@link fakeRerankScore}. */
  rerankScore?: (query: string, document: string) => number;
  /**
   * Texts TEI's `/rerank` takes in one request (its `--max-client-batch-size`, 32 by default);
   * more are refused with 413 and a Validation error, as TEI does. Unlimited when unset.
   */
  rerankMaxBatch?: number;
}

export interface LoggedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: any;
}

export interface FakeModelServer {
  /** `http://127.0.0.1:<port>`: OLLAMA_URL as is, OPENAI_BASE_URL with `/v1`. */
  readonly url: string;
  /** Behaviour, changeable between (and during) tests. */
  readonly options: FakeModelServerOptions & { dimensions: number; models: string[] };
  readonly requests: LoggedRequest[];
  /** Most requests to `path` the server held at once (answered or not): what clients sent concurrently. */
  peakOpenRequests(path: string): number;
  fail(...failures: FakeFailure[]): void;
  close(): Promise<void>;
}

/** Deterministic bag-of-words vector: texts sharing words point the same way. Not normalised. */
export function fakeEmbedding(text: string, dimensions: number): number[] {
  const vector = new Array<number>(dimensions).fill(0);
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  for (const word of words) {
    const digest = createHash('sha256').update(word).digest();
    vector[digest.readUInt32BE(0) % dimensions] += digest[4] & 1 ? 1 : -1;
  }
  if (!vector.some((value) => value !== 0)) vector[0] = 1;
  return vector;
}

/** Share of the query's distinct words the document contains, 0–1: a deterministic stand-in for a cross-encoder. */
export function fakeRerankScore(query: string, document: string): number {
  const words = (text: string) => new Set(text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const asked = words(query);
  if (asked.size === 0) return 0;
  const present = words(document);
  return [...asked].filter((word) => present.has(word)).length / asked.size;
}

/** Ollama's rule: an untagged name means `:latest`. */
const tagged = (name: string) => (name.slice(name.lastIndexOf('/') + 1).includes(':') ? name : `${name}:latest`);

/**
 * A real HTTP server speaking Ollama's native API, the OpenAI API, the rerank API of
 * llama.cpp, vLLM and Cohere-compatible servers (`POST /v1/rerank`) and that of Hugging Face
 * text-embeddings-inference (`POST /rerank {query, texts}` → `[{index, score}]`) faithfully enough for the
 * production clients: same paths, bodies, status codes and error shapes. Latency is
 * simulated with timers, so concurrent requests overlap and throughput depends only on the
 * configured latency (undici's fetch opens as many connections as needed).
 */
export async function startFakeModelServer(initial: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const options = { dimensions: 64, models: ['nomic-embed-text:latest', 'llama3.2:latest'], ...initial };
  const requests: LoggedRequest[] = [];
  const failures: FakeFailure[] = [];
  const waitingForSlot: (() => void)[] = [];
  let busySlots = 0;
  const open = new Map<string, number>();
  const peakOpen = new Map<string, number>();

  async function work(ms: number): Promise<void> {
    while (options.slots !== undefined && busySlots >= options.slots) {
      await new Promise<void>((resolve) => waitingForSlot.push(resolve));
    }
    busySlots += 1;
    try {
      await new Promise((resolve) => setTimeout(resolve, ms));
    } finally {
      busySlots -= 1;
      waitingForSlot.shift()?.();
    }
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const now = (open.get(path) ?? 0) + 1;
      open.set(path, now);
      peakOpen.set(path, Math.max(peakOpen.get(path) ?? 0, now));
      void handle(req, res, Buffer.concat(chunks).toString('utf8')).finally(() =>
        open.set(path, (open.get(path) ?? 1) - 1),
      );
    });
  });
  // Long runs and slow scripted answers must not be cut by Node's defaults.
  server.requestTimeout = 0;
  server.keepAliveTimeout = 60_000;

  async function handle(req: IncomingMessage, res: ServerResponse, raw: string): Promise<void> {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    let body: any;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      body = raw;
    }
    requests.push({ method: req.method ?? 'GET', path, headers: req.headers, body });
    const index = failures.findIndex((failure) => !failure.path || failure.path === path);
    const failure = index === -1 ? undefined : failures.splice(index, 1)[0];
    const items = Array.isArray(body?.input) ? body.input.length : 1;
    const chatPath = path === '/api/chat' || path === '/api/generate' || path === '/v1/chat/completions';
    const wait =
      (options.latencyMs ?? 0) +
      (chatPath ? (options.chatLatencyMs ?? 0) : 0) +
      (path.endsWith('embed') || path.endsWith('embeddings') ? items : 0) * (options.perItemLatencyMs ?? 0);
    if (wait > 0) await work(wait);

    if (failure?.type === 'reset') return void req.socket.destroy();
    if (failure?.type === 'hang') return;
    if (failure?.type === 'status') {
      const headers: Record<string, string> =
        failure.retryAfter === undefined ? {} : { 'retry-after': failure.retryAfter };
      return send(res, failure.status, { error: `scripted ${failure.status}` }, headers);
    }
    if (failure?.type === 'malformed') return send(res, 200, '{"embeddings": [[0.1, 0.2');

    const openai = path.startsWith('/v1/');
    // TEI checks a bearer key too when started with --api-key.
    if ((openai || path === '/rerank') && options.apiKey && req.headers.authorization !== `Bearer ${options.apiKey}`) {
      return send(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } });
    }
    const route = `${req.method} ${path}`;
    if (route === 'GET /api/tags') {
      return send(res, 200, { models: options.models.map((name) => ({ name, model: name, size: 1, digest: 'fake' })) });
    }
    if (route === 'GET /v1/models') {
      return send(res, 200, {
        object: 'list',
        data: options.models.map((id) => ({ id, object: 'model', created: 0, owned_by: 'fake' })),
      });
    }
    // TEI serves one model and names none in requests: it is answered before the model checks.
    if (route === 'POST /rerank') return teiRerank(res, body, failure);
    const known = [
      'POST /api/embed',
      'POST /api/chat',
      'POST /api/generate',
      'POST /v1/embeddings',
      'POST /v1/chat/completions',
      'POST /v1/rerank',
    ];
    if (!known.includes(route)) return send(res, 404, '404 page not found');
    if (typeof body !== 'object' || body === null || typeof body.model !== 'string') {
      return send(res, 400, openai ? { error: { message: 'model is required' } } : { error: 'model is required' });
    }
    if (!options.models.some((name) => tagged(name) === tagged(body.model))) {
      const message = `model "${body.model}" not found, try pulling it first`;
      return send(
        res,
        404,
        openai ? { error: { message, type: 'invalid_request_error', code: 'model_not_found' } } : { error: message },
      );
    }

    if (path === '/api/embed' || path === '/v1/embeddings') {
      const input: unknown[] = Array.isArray(body.input) ? body.input : [body.input];
      if (!input.every((text) => typeof text === 'string')) return send(res, 400, { error: 'invalid input type' });
      const size = failure?.type === 'dimensions' ? failure.dimensions : options.dimensions;
      const vectors = input.map((text) => fakeEmbedding(text, size));
      const nan = failure?.type === 'nan';
      if (path === '/api/embed') {
        return send(res, 200, rawJson({ model: body.model, embeddings: vectors }, nan));
      }
      const data = vectors.map((embedding, i) => ({ object: 'embedding', index: i, embedding }));
      if (failure?.type === 'reverse-order') data.reverse();
      return send(
        res,
        200,
        rawJson({ object: 'list', data, model: body.model, usage: { prompt_tokens: 0, total_tokens: 0 } }, nan),
      );
    }

    if (path === '/v1/rerank') {
      const wellFormed = typeof body.query === 'string' && Array.isArray(body.documents);
      if (wellFormed && options.rerankMaxBatch !== undefined && body.documents.length > options.rerankMaxBatch) {
        return send(res, 400, { error: { message: `too many documents: more than ${options.rerankMaxBatch}` } });
      }
      const documents: unknown[] = Array.isArray(body.documents) ? body.documents : [];
      if (typeof body.query !== 'string' || documents.length === 0 || !documents.every((d) => typeof d === 'string')) {
        return send(res, 400, { error: { message: 'query and a non-empty list of documents are required' } });
      }
      const answer = (results: readonly unknown[]) =>
        send(res, 200, { id: 'rerank-fake', model: body.model, usage: { total_tokens: 0 }, results });
      if (failure?.type === 'rerank-results') return answer(failure.results);
      const score = options.rerankScore ?? fakeRerankScore;
      // Best first, as the servers answer; `top_n` keeps that many.
      const scored = documents
        .map((text, index) => ({ index, relevance_score: score(body.query, text), document: { text } }))
        .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index);
      const topN = Number.isInteger(body.top_n) && body.top_n > 0 ? body.top_n : scored.length;
      return answer(scored.slice(0, topN));
    }

    const messages =
      path === '/api/generate'
        ? [
            ...(body.system ? [{ role: 'system', content: body.system }] : []),
            { role: 'user', content: String(body.prompt ?? '') },
          ]
        : (body.messages ?? []);
    const chat: FakeChatRequest = {
      protocol: openai ? 'openai' : 'ollama',
      model: body.model,
      messages,
      json: openai ? body.response_format?.type === 'json_object' : body.format === 'json',
      maxTokens: openai ? body.max_tokens : body.options?.num_predict,
      temperature: openai ? body.temperature : body.options?.temperature,
    };
    const answer = typeof options.chatAnswer === 'function' ? options.chatAnswer(chat) : (options.chatAnswer ?? 'ok');
    if (openai) {
      return send(res, 200, {
        id: 'chatcmpl-fake',
        object: 'chat.completion',
        created: 0,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: answer }, finish_reason: 'stop' }],
      });
    }
    const base = { model: body.model, created_at: new Date().toISOString() };
    const final = { ...base, done: true, done_reason: 'stop' };
    const content = path === '/api/chat' ? { message: { role: 'assistant', content: answer } } : { response: answer };
    if (body.stream !== false) {
      // Ollama streams by default: NDJSON chunks, then a final `done` chunk.
      res.writeHead(200, { 'content-type': 'application/x-ndjson' });
      res.write(`${JSON.stringify({ ...base, ...content, done: false })}\n`);
      return void res.end(`${JSON.stringify(final)}\n`);
    }
    return send(res, 200, { ...final, ...content });
  }

  /** TEI's `/rerank`: every text scored, best first, `[{index, score}]` (and `text` when asked for). */
  function teiRerank(res: ServerResponse, body: any, failure: FakeFailure | undefined): void {
    const texts: unknown[] = Array.isArray(body?.texts) ? body.texts : [];
    if (typeof body?.query !== 'string' || texts.length === 0 || !texts.every((t) => typeof t === 'string')) {
      return send(res, 422, { error: 'Input validation error: `texts` cannot be empty', error_type: 'Validation' });
    }
    if (options.rerankMaxBatch !== undefined && texts.length > options.rerankMaxBatch) {
      return send(res, 413, {
        error: `batch size ${texts.length} > maximum allowed batch size ${options.rerankMaxBatch}`,
        error_type: 'Validation',
      });
    }
    if (failure?.type === 'rerank-results') return send(res, 200, failure.results);
    const score = options.rerankScore ?? fakeRerankScore;
    const ranked = texts
      .map((text, index) => ({
        index,
        score: score(body.query, text),
        ...(body.return_text ? { text } : {}),
      }))
      .sort((a, b) => b.score - a.score || a.index - b.index);
    return send(res, 200, ranked);
  }

  await new Promise<void>((resolve) => server.listen({ host: '127.0.0.1', port: 0, backlog: 1024 }, resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    options,
    requests,
    peakOpenRequests: (path) => peakOpen.get(path) ?? 0,
    fail: (...scripted) => failures.push(...scripted),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // including hanging requests
      }),
  };
}

/** JSON text, optionally with a `NaN` literal as the first vector's first component. */
function rawJson(value: unknown, nan: boolean): string {
  const text = JSON.stringify(value);
  return nan
    ? text.replace(/\[\[(-?[\d.e+-]+)/, '[[NaN').replace(/"embedding":\[(-?[\d.e+-]+)/, '"embedding":[NaN')
    : text;
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body === 'string' && !text.startsWith('{') ? 'text/plain' : 'application/json';
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8`, ...headers });
  res.end(text);
}
