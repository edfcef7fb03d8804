/** A candidate as the reranker reads it: the search's id and the text to judge against the query. */
export interface RerankDocument {
  readonly id: string;
  readonly text: string;
}

/** The reranker's relevance of one candidate to the query; only its order among candidates matters. */
export interface RerankScore {
  readonly id: string;
  readonly score: number;
}

/**
 * A second-stage ranker (a cross-encoder) that reads the query and each candidate together,
 * after fusion. Implementations: {@link HttpReranker} (a server of the `/v1/rerank` API or TEI's `/rerank`).
 */
export interface Reranker {
  /** The model, as search reports name it. */
  readonly model: string;
  /**
   * Scores for the documents it could score, in any order, each id at most once and only ids
   * of `documents`. Rejects when the model cannot answer; stops when `signal` aborts. Called
   * once per batch (RERANK_BATCH_SIZE documents at most), the batches of a search at once:
   * scores must not depend on the other documents of the request, as a cross-encoder's do not.
   */
  rerank(query: string, documents: readonly RerankDocument[], signal?: AbortSignal): Promise<RerankScore[]>;
}

/** Injection token of the configured {@link Reranker}; `null` when RERANK_URL is unset. */
export const RERANKER = Symbol('RERANKER');

/** What the reranker did to one result (explain). */
export interface RerankExplain {
  /** The reranker's relevance score. */
  readonly score: number;
  /** 1-based position after reranking. */
  readonly rank: number;
  /** 1-based position in the fused order (after any date adjustment), before reranking. */
  readonly fusedRank: number;
}

/** The reranking stage of one search, when a reranker is configured. */
export interface RerankReport {
  readonly model: string;
  /** Fused results sent to the reranker. */
  readonly candidates: number;
  /** False when it failed or answered too late: the fused order stands (the notes say why). */
  readonly applied: boolean;
  /** How long the search waited for it, in milliseconds. */
  readonly ms: number;
}
