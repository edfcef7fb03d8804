import { type RerankExplain, type RerankReport } from './reranker';

export const SEARCH_MODES = ['hybrid', 'keyword', 'semantic'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export type SignalName = 'keyword' | 'semantic';

/** One candidate from one ranker, with what the final ranking needs to weigh it. */
export interface Candidate {
  readonly id: string;
  /** The ranker's own relevance (BM25 for keyword, cosine similarity for semantic). */
  readonly score: number;
  readonly signals: RankingSignals;
}

/** Item properties the bounded boosts look at; absent ones are neutral. */
export interface RankingSignals {
  readonly importance?: number;
  readonly confidence?: number;
  readonly pinned?: boolean;
  readonly createdAt: Date;
}

export interface SignalExplain {
  readonly rank: number;
  readonly score: number;
  /** Score relative to the best candidate of the same ranker, 0–1. */
  readonly relative: number;
  /** This ranker's share of the fused score. */
  readonly contribution: number;
}

export interface Boosts {
  readonly importance: number;
  readonly recency: number;
  readonly confidence: number;
  readonly pinned: number;
}

export interface Explanation {
  readonly keyword?: SignalExplain;
  readonly semantic?: SignalExplain;
  readonly fused: number;
  readonly boosts: Boosts;
  readonly final: number;
  /** With a reranker configured, for the candidates it scored. */
  readonly rerank?: RerankExplain;
}

export interface RankedId {
  readonly id: string;
  readonly score: number;
  readonly explain: Explanation;
}

/** What a search reports about how it ran, so callers know when it degraded. */
export interface SearchReport {
  readonly requestedMode: SearchMode;
  readonly mode: SearchMode;
  /** Why the mode differs from the one requested, or why vectors are weak. */
  readonly notes: readonly string[];
  readonly embeddingModel: string | null;
  /** With a reranker configured (RERANK_URL): its model and whether its order was applied. */
  readonly rerank?: RerankReport;
}
