/** Candidates each ranker contributes to fusion for a result list of `limit`. */
export function candidatesPerList(limit: number): number {
  return Math.max(50, limit * 4);
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
