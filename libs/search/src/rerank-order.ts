import { type RerankScore } from './contract/reranker';
import { type Explanation } from './contract/search.types';

/** A ranked result the reranking stage can reorder: its id, and the explanation it extends. */
export interface Rerankable {
  readonly id: string;
  readonly explain: Explanation;
}

/**
 * The reranker's order for the first `headLength` results: those it scored, best first (ties
 * keep their fused order), each with `explain.rerank`; then those of the head it did not
 * score, in fused order; then the rest as they were. Scores for ids outside the head, or
 * repeated (the first counts), change nothing.
 */
export function rerankOrder<T extends Rerankable>(
  ranked: readonly T[],
  headLength: number,
  scores: readonly RerankScore[],
): T[] {
  const scoreOf = new Map<string, number>();
  for (const { id, score } of scores) if (!scoreOf.has(id) && Number.isFinite(score)) scoreOf.set(id, score);
  const head = ranked
    .slice(0, headLength)
    .map((item, index) => ({ item, fusedRank: index + 1, score: scoreOf.get(item.id) }));
  const scored = head
    .filter((entry): entry is typeof entry & { score: number } => entry.score !== undefined)
    .sort((a, b) => b.score - a.score || a.fusedRank - b.fusedRank)
    .map(({ item, fusedRank, score }, index): T => ({
      ...item,
      explain: { ...item.explain, rerank: { score, rank: index + 1, fusedRank } },
    }));
  const unscored = head.filter((entry) => entry.score === undefined).map((entry) => entry.item);
  return [...scored, ...unscored, ...ranked.slice(headLength)];
}
