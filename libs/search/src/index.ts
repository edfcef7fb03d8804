export { type Corpus } from './contract/corpus';
export { normaliseQuery, QUERY_MAX_CHARS, searchQuerySchema } from './contract/query-text';
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
export { boostsFor, DEFAULT_RRF_K, fuse } from './fusion';
export { HybridSearch, type QueryVector, type RankRequest } from './hybrid-search.service';
export { QueryEmbeddings } from './query-embeddings.service';
export { candidatesPerList, vectorSearchSettings } from './ranking-sizes';
// The ranker builders, for diagnostics that EXPLAIN the exact statement HybridSearch runs (bench/search).
export { keywordCtes, vectorCte } from './ranking.sql';
export { SearchModule } from './search.module';
export { EXACT_SCAN_BUDGET, exactScanRowLimit, VectorScanChoice } from './vector-scan-choice.service';
