import { z } from 'zod';
import { JsonHttp } from './http-json';

/** The two rerank APIs spoken: see {@link RerankClient}. */
export const RERANK_APIS = ['cohere', 'tei'] as const;
export type RerankApi = (typeof RERANK_APIS)[number];

export interface RerankClientOptions {
  /**
   * The server's base URL, e.g. `http://llama:8080`; requests go to `{baseUrl}/v1/rerank`
   * (`cohere`) or `{baseUrl}/rerank` (`tei`).
   */
  readonly baseUrl: string;
  /** Default `cohere`. */
  readonly api?: RerankApi;
  readonly apiKey?: string;
  readonly timeoutMs: number;
}

/** One scored document of a rerank answer, as the server numbered it (position in the request). */
export interface RerankResult {
  readonly index: number;
  readonly score: number;
}

// Servers add fields (`id`, `model`, `usage`, each result's `document` or `text`): only these are read.
const cohereResponse = z.object({
  results: z.array(z.object({ index: z.number(), relevance_score: z.number() })),
});
const teiResponse = z.array(z.object({ index: z.number(), score: z.number() }));

/**
 * A cross-encoder's rerank API, in one of two dialects:
 *
 * - `cohere`, what llama.cpp's server, vLLM, Jina, Cohere-compatible gateways and LiteLLM serve:
 *   `POST /v1/rerank {model, query, documents: string[], top_n}` → `{results: [{index, relevance_score}]}`;
 * - `tei`, Hugging Face text-embeddings-inference: `POST /rerank {query, texts, truncate: true}`
 *   → `[{index, score}]`. TEI serves one model per server, so the request names none; `truncate`
 *   cuts a text longer than the model's window instead of refusing the whole request.
 *
 * Both answer best first, indexes counting positions in the request. They are returned as
 * given: checking them against the documents sent is the caller's (it knows what they stand
 * for). The bearer key is sent only when configured (TEI checks one with `--api-key`).
 */
export class RerankClient {
  readonly label: string;
  readonly api: RerankApi;
  private readonly http: JsonHttp;

  constructor(options: RerankClientOptions) {
    this.api = options.api ?? 'cohere';
    this.label = this.api === 'tei' ? 'Reranker (TEI)' : 'Reranker';
    this.http = new JsonHttp({
      baseUrl: options.baseUrl,
      label: this.label,
      timeoutMs: options.timeoutMs,
      headers: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    });
  }

  get where(): string {
    return this.http.where;
  }

  async rerank(
    model: string,
    query: string,
    documents: readonly string[],
    signal?: AbortSignal,
  ): Promise<RerankResult[]> {
    if (this.api === 'tei') {
      const answer = await this.http.request({
        method: 'POST',
        path: '/rerank',
        body: { query, texts: documents, truncate: true },
        schema: teiResponse,
        signal,
        model,
      });
      return answer.map((result) => ({ index: result.index, score: result.score }));
    }
    const answer = await this.http.request({
      method: 'POST',
      path: '/v1/rerank',
      body: { model, query, documents, top_n: documents.length },
      schema: cohereResponse,
      signal,
      model,
    });
    return answer.results.map((result) => ({ index: result.index, score: result.relevance_score }));
  }
}
