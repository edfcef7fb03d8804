/**
 * Most candidates one ranker contributes, unless the list asked for is longer: four times a
 * reranker's 500 candidates would be 2,000 a ranker, past what the keyword ranker reads through
 * its rarer terms (DEFAULT_MATCH_BUDGET) and the vector index's search list (`hnsw.ef_search`).
 */
const MAX_PER_LIST = 1000;

/**
 * Candidates each ranker contributes to fusion for a result list of `limit`: four times the
 * list, so a result low in both rankers can still rise, and never fewer than the list itself,
 * so each ranker alone could fill it. With a reranker `limit` is RERANK_CANDIDATES deep, and
 * both rankers' candidates reach it.
 */
export function candidatesPerList(limit: number): number {
  return Math.max(50, limit, Math.min(limit * 4, MAX_PER_LIST));
}

/**
 * GUCs for the search transaction: keep HNSW scanning until filtered results suffice, with a
 * search list well above the candidates asked for (recall of the approximate index falls
 * off quickly when ef_search is close to the LIMIT).
 */
export function vectorSearchSettings(limit: number): Record<string, string> {
  const efSearch = Math.min(1000, Math.max(100, candidatesPerList(limit) * 2));
  return { 'hnsw.iterative_scan': 'relaxed_order', 'hnsw.ef_search': String(efSearch) };
}
