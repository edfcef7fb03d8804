export { type CorpusDefinition, corpusQuery, type CorpusQuery, type OccurredWindow } from './contract/corpus';
export {
  type DatedOutcome,
  type DatedRankRequest,
  type DatedRequest,
  type QueryVector,
  type RankOutcome,
  type RankRequest,
} from './contract/rank-request';
export { normaliseQuery, QUERY_MAX_CHARS, searchQuerySchema } from './contract/query-text';
export {
  minRelevanceSchema,
  relevanceExplainSchema,
  type RelevanceCalibration,
  type RelevanceReport,
  relevanceReportSchema,
  type RelevanceScores,
  type RelevanceSignals,
  type ScoredRelevance,
} from './contract/relevance';
export { rerankExplainSchema, rerankReportSchema } from './contract/rerank.schema';
export {
  type RerankDocument,
  type Reranker,
  RERANKER,
  type RerankExplain,
  type RerankReport,
  type RerankScore,
} from './contract/reranker';
export {
  type Boosts,
  type Candidate,
  type Explanation,
  type RankedId,
  type RankingSignals,
  SEARCH_MODES,
  type SignalName,
  type SearchMode,
  type SearchReport,
  type SignalExplain,
} from './contract/search.types';
export { boostsFor, DEFAULT_RRF_K, fuse, type FusionMethod } from './fusion';
export { HybridSearch } from './hybrid-search.service';
export { type RenderedStatement } from './ranking.repository';
export { type KeywordOptions, type RankingPlan, type SemanticOptions } from './ranking.types';
export { DEFAULT_MATCH_BUDGET } from './text-ranking.service';
export { createReranker, HttpReranker } from './http-reranker';
export { QueryEmbeddings } from './query-embeddings.service';
export { queryEntities } from './query-entities';
export { REWRITE_NOTE_PREFIX, type RewriteOutcome, rewriteOutcomeOf } from './query-rewrite';
export { QueryRewriting } from './query-rewriting.service';
export { type Rerankable } from './rerank-order';
export { type Reranked, Reranking } from './reranking.service';
export { relevanceCalibration, relevanceOf } from './relevance';
export { candidatesPerList, vectorSearchSettings } from './ranking-sizes';
// The keyword ranker's constants, for the evaluation's own BM25 (bench/eval) and its tests.
export { BM25, ENTITY_WEIGHT } from './keyword-ranking.sql';
export { SearchWorkerModule } from './jobs/search-worker.module';
export { SearchModule } from './search.module';
export { FOLD_AFTER_WRITES, TermStatistics } from './term-statistics.service';
export { EXACT_SCAN_BUDGET, exactScanRowLimit, VectorScanChoice } from './vector-scan-choice.service';
