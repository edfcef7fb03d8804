import { type EmbeddingModel } from '@cairn/embeddings';

export interface KeywordOptions {
  /**
   * Rows the rarest query terms may select as candidates, by their document frequencies (when
   * even the rarest exceeds it, the rarest terms are required together: keywordCtes): what
   * bounds the keyword ranker's cost at any corpus size.
   */
  readonly matchBudget: number;
  readonly limit: number;
  /** Names, identifiers and quoted phrases of the query (queryEntities), weighed above common words. */
  readonly entities: string;
  /** Only the rarest this-many query terms are used: long queries stay cheap and focused. */
  readonly maxTerms: number;
}

export interface SemanticOptions {
  readonly model: EmbeddingModel;
  readonly vector: ArrayLike<number>;
  readonly limit: number;
  /** Compare every vector instead of walking the HNSW index (VectorScanChoice decides). */
  readonly exact: boolean;
}

/** Which rankers one ranking statement runs (at least one), with their sizes. */
export interface RankingPlan {
  readonly keyword?: KeywordOptions & { readonly query: string };
  readonly semantic?: SemanticOptions;
}

/**
 * A corpus as one statement sees it: the owner's condition rendered with that statement's own
 * parameters (renderCorpus), the signal columns over alias `c`. Internal to one repository call.
 */
export interface RenderedCorpus {
  readonly table: string;
  /** Boolean SQL over the statement's alias for the corpus. */
  readonly where: string;
  /** Columns over alias `c` returned as the ranking signals: importance, confidence, pinned, created_at. */
  readonly signals: string;
  /** The term-statistics scopes the filter covers: the keyword ranker sums its document frequencies over them. */
  readonly termScopes: readonly string[];
}
