import { type CorpusDefinition, corpusQuery, type CorpusQuery } from '@cairn/search';
import { type MemoryFilter } from './contract/memory-filter';
import { memoryFilterSql } from './memory-filter.sql';

/** The term-statistics scope of memories without a project (tenant migration 8). */
const TENANT_WIDE_SCOPE = '00000000-0000-0000-0000-000000000000';

/** What recall and the contradiction check rank memories by: a filter, and one memory left out. */
export interface MemoryCorpusFilter extends MemoryFilter {
  /** The memory whose contradictions are sought: never its own candidate. */
  readonly excludeId?: string;
}

/**
 * Memories as the shared rankers see them (@cairn/search renders the rankers around it). Every
 * field of a memory is searched as one text; the rows are the ones the filter admits, by
 * memory's one visibility rule (memoryFilterSql), rendered here and nowhere else. No
 * vector-currency condition: an edit clears the old vector (MemoriesRepository.update), so a
 * row carrying this model's vector is current, and the planner keeps its HNSW path.
 */
export const MEMORY_CORPUS: CorpusDefinition<MemoryCorpusFilter> = {
  table: 'memories',
  signals: { importance: true, confidence: true, pinned: true },
  occurredAt: 'occurred_at',
  termScopes(filter) {
    const { projectIds, includeTenantWide } = filter.scope;
    return includeTenantWide ? [...projectIds, TENANT_WIDE_SCOPE] : [...projectIds];
  },
  condition(filter, binder, alias) {
    const where = memoryFilterSql(filter, binder, alias);
    return filter.excludeId === undefined ? where : `${where} AND ${alias}.id <> ${binder.add(filter.excludeId)}`;
  },
  within(filter, window) {
    return { ...filter, occurredFrom: window.from ?? undefined, occurredBefore: window.to ?? undefined };
  },
};

/** Memories matching `filter` as a corpus to rank. */
export function memoryCorpus(filter: MemoryCorpusFilter): CorpusQuery {
  return corpusQuery(MEMORY_CORPUS, filter);
}
