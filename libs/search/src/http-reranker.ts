import { Logger } from '@nestjs/common';
import { type CairnConfig } from '@cairn/config';
import { RerankClient, type RerankResult } from '@cairn/providers';
import { type RerankDocument, type Reranker, type RerankScore } from './contract/reranker';

/**
 * A cross-encoder behind a rerank API (RerankClient: `/v1/rerank` of llama.cpp's server, vLLM,
 * Jina, Cohere-compatible gateways, or TEI's `/rerank`). The answer numbers documents by their
 * position in the request; an entry that
 * names no document sent (out of range, not an integer), repeats one already scored, or has
 * no finite score is ignored, so a confused server can reorder nothing it was not asked about.
 */
export class HttpReranker implements Reranker {
  private readonly logger = new Logger('HttpReranker');

  constructor(
    private readonly client: RerankClient,
    readonly model: string,
  ) {}

  async rerank(query: string, documents: readonly RerankDocument[], signal?: AbortSignal): Promise<RerankScore[]> {
    const results = await this.client.rerank(
      this.model,
      query,
      documents.map((document) => document.text),
      signal,
    );
    const { scores, ignored } = scoresByIndex(results, documents);
    if (ignored > 0) {
      this.logger.warn({
        msg: 'the reranker answered entries that name no document sent; ignored them',
        ignored,
        documents: documents.length,
      });
    }
    return scores;
  }
}

/** The answer's entries as scores of the documents they name; the first of a repeated index counts. */
export function scoresByIndex(
  results: readonly RerankResult[],
  documents: readonly RerankDocument[],
): { scores: RerankScore[]; ignored: number } {
  const seen = new Set<number>();
  const scores: RerankScore[] = [];
  for (const { index, score } of results) {
    const document = Number.isInteger(index) && index >= 0 ? documents[index] : undefined;
    if (!document || seen.has(index) || !Number.isFinite(score)) continue;
    seen.add(index);
    scores.push({ id: document.id, score });
  }
  return { scores, ignored: results.length - scores.length };
}

/** The reranker RERANK_URL configures, or null (reranking off, the default). */
export function createReranker(config: CairnConfig): Reranker | null {
  const { url, api, model, apiKey, timeoutMs } = config.rerank;
  if (!url || !model) return null;
  // The client's own timeout is the search's budget: a late answer is never used.
  return new HttpReranker(new RerankClient({ baseUrl: url, api, apiKey, timeoutMs }), model);
}
