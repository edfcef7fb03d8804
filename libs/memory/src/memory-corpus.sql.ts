import { type Corpus } from '@cairn/search';
import { type SqlParams } from '@cairn/db';
import { type MemoryFilter } from './contract/memory-filter';
import { memoryFilterSql } from './memory-filter.sql';

/** A corpus for HybridSearch.rank with the parameters its SQL has taken so far (the ranker adds its own). */
export interface RankingCorpus {
  readonly corpus: Corpus;
  readonly params: SqlParams;
}

/** Memories as the shared rankers see them. */
export function memoryCorpus(filter: MemoryFilter, params: SqlParams): Corpus {
  return {
    table: 'memories',
    where: memoryFilterSql(filter, params, 'c'),
    signals: 'c.importance, c.confidence, c.pinned, c.created_at',
    // Content counts most; the agent's expansion keywords next; tags and category a little.
    fieldWeights: { A: 1.0, B: 0.7, C: 0.5, D: 0.3 },
    // No vector-currency condition: an edit clears the old vector (MemoriesRepository.update),
    // so a row carrying this model's vector is current, and the planner keeps its HNSW path.
  };
}
