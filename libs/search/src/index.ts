export { boostsFor, DEFAULT_RRF_K, fuse } from './fusion';
export { HybridSearch, type RankRequest } from './hybrid-search.service';
export { QueryEmbeddings } from './query-embeddings';
export { normaliseQuery, QUERY_MAX_CHARS, searchQuerySchema } from './query-text';
export { candidatesPerList, type Corpus, keywordCtes, vectorCte, vectorSearchSettings } from './ranker-sql';
export { SearchModule } from './search.module';
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
} from './search.types';
export { EXACT_SCAN_BUDGET, exactScanRowLimit, VectorScanChoice } from './vector-scan-choice';
