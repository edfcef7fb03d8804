import { type Corpus } from '@cairn/search';
import { type SqlParams } from '@cairn/db';
import { type MemoryFilter } from './contract/memory-filter';
import { memoryFilterSql } from './memory-filter.sql';

/** A corpus for HybridSearch.rank with the parameters its SQL has taken so far (the ranker adds its own). */
export interface RankingCorpus {
  readonly corpus: Corpus;
  readonly params: SqlParams;
}

/** The term-statistics scope of memories without a project (tenant migration 8). */
const TENANT_WIDE_SCOPE = '00000000-0000-0000-0000-000000000000';

/** Whose term statistics weigh a search over `filter`: its projects, and tenant-wide rows when included. */
function termScopesOf(filter: MemoryFilter): string[] {
  const { projectIds, includeTenantWide } = filter.scope;
  return includeTenantWide ? [...projectIds, TENANT_WIDE_SCOPE] : [...projectIds];
}

/** Memories as the shared rankers see them. Every field of a memory is searched as one text. */
export function memoryCorpus(filter: MemoryFilter, params: SqlParams): Corpus {
  return {
    table: 'memories',
    where: memoryFilterSql(filter, params, 'c'),
    signals: 'c.importance, c.confidence, c.pinned, c.created_at',
    termScopes: termScopesOf(filter),
    // No vector-currency condition: an edit clears the old vector (MemoriesRepository.update),
    // so a row carrying this model's vector is current, and the planner keeps its HNSW path.
  };
}
