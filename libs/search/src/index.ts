export { type Corpus } from './contract/corpus';
export { normaliseQuery, QUERY_MAX_CHARS, searchQuerySchema } from './contract/query-text';
export {
  minRelevanceSchema,
  relevanceExplainSchema,
  type RelevanceReport,
  relevanceReportSchema,
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
  type SearchMode,
  type SearchReport,
  type SignalExplain,
} from './contract/search.types';
export { boostsFor, DEFAULT_RRF_K, fuse, type FusionMethod } from './fusion';
export { DEFAULT_MATCH_BUDGET, HybridSearch, type QueryVector, type RankRequest } from './hybrid-search.service';
export { createReranker, HttpReranker } from './http-reranker';
export { QueryEmbeddings } from './query-embeddings.service';
export { queryEntities } from './query-entities';
export { type Rerankable } from './rerank-order';
export { type Reranked, Reranking } from './reranking.service';
export { type RelevanceCalibration, relevanceCalibration, relevanceOf } from './relevance';
export { type RelevanceRequest, RelevanceScoring, type RelevanceScores } from './relevance-scoring.service';
export { candidatesPerList, vectorSearchSettings } from './ranking-sizes';
// The ranker builders, for diagnostics that EXPLAIN the exact statement HybridSearch runs (bench/search).
export { BM25, ENTITY_WEIGHT, keywordCtes, lexemeQuerySql, termFrequencySql } from './keyword-ranking.sql';
export { vectorCte } from './ranking.sql';
export { SearchWorkerModule } from './jobs/search-worker.module';
export { SearchModule } from './search.module';
export { TermStatistics } from './term-statistics.service';
export { EXACT_SCAN_BUDGET, exactScanRowLimit, VectorScanChoice } from './vector-scan-choice.service';
