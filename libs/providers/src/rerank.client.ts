import { z } from 'zod';
import { JsonHttp } from './http-json';

export interface RerankClientOptions {
  /** The server's base URL, e.g. `http://llama:8080`; requests go to `{baseUrl}/v1/rerank`. */
  readonly baseUrl: string;
  readonly apiKey?: string;
  readonly timeoutMs: number;
}

/** One scored document of a rerank answer, as the server numbered it (position in `documents`). */
export interface RerankResult {
  readonly index: number;
  readonly score: number;
}

// Servers add fields (`id`, `model`, `usage`, each result's `document`): only these are read.
const rerankResponse = z.object({
  results: z.array(z.object({ index: z.number(), relevance_score: z.number() })),
});

/**
 * The rerank API llama.cpp's server, vLLM, Jina, Cohere-compatible gateways and LiteLLM serve:
 * `POST /v1/rerank {model, query, documents: string[], top_n}` →
 * `{results: [{index, relevance_score}]}`, results sorted best first. Hugging Face TEI's own
 * `POST /rerank {query, texts}` → `[{index, score}]` is another shape, not spoken here.
 * The answer's indexes are returned as given: checking them against the documents sent is
 * the caller's (it knows what they stand for). The bearer key is sent only when configured.
 */
export class RerankClient {
  readonly label = 'Reranker';
  private readonly http: JsonHttp;

  constructor(options: RerankClientOptions) {
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
    const answer = await this.http.request({
      method: 'POST',
      path: '/v1/rerank',
      body: { model, query, documents, top_n: documents.length },
      schema: rerankResponse,
      signal,
      model,
    });
    return answer.results.map((result) => ({ index: result.index, score: result.relevance_score }));
  }
}
