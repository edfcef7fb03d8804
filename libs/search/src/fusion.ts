import {
  type Boosts,
  type Candidate,
  type Explanation,
  type RankedId,
  type RankingSignals,
  type SignalExplain,
  type SignalName,
} from './contract/search.types';

/**
 * How the keyword and semantic lists become one. `rrf`: reciprocal rank fusion, each ranker
 * contributing weight / (k + rank). `score`: a convex combination of each ranker's scores
 * normalised to its list (BM25 divided by the list's best; cosine min-max scaled over the
 * list), a ranker that did not return a candidate contributing 0. Score fusion keeps how far
 * apart candidates are, which rank fusion throws away: when one ranker is much stronger on a
 * question (exact names and numbers for BM25), its clear winner stays on top.
 */
export type FusionMethod =
  | { readonly kind: 'rrf'; readonly k: number; readonly keywordWeight: number }
  | { readonly kind: 'score'; readonly keywordWeight: number };

export interface FusionOptions {
  readonly method: FusionMethod;
  readonly now: Date;
}

export const DEFAULT_RRF_K = 60;
const DAY_MS = 86_400_000;
const RECENCY_HALF_LIFE_DAYS = 30;

/** Each candidate's share of the fused score from one list, by the fusion method. */
function contributions(list: readonly Candidate[], method: FusionMethod, weight: number, name: SignalName) {
  const sorted = [...list].sort((a, b) => b.score - a.score);
  const best = sorted[0]?.score ?? 0;
  const worst = sorted[sorted.length - 1]?.score ?? 0;
  let rank = 0;
  let previous = Number.NaN;
  return sorted.map((candidate, index) => {
    // Equal scores share a rank, so ties are broken by the boosts, not by chance.
    if (candidate.score !== previous) rank = index + 1;
    previous = candidate.score;
    const relative =
      name === 'keyword'
        ? Math.max(0, candidate.score) / Math.max(best, Number.EPSILON)
        : best > worst
          ? (candidate.score - worst) / (best - worst)
          : 1;
    const contribution = method.kind === 'rrf' ? weight / (method.k + rank) : weight * relative;
    return { candidate, explain: { rank, score: candidate.score, relative, contribution } };
  });
}

/**
 * One ranked list from the rankers' candidates (see FusionMethod), each result multiplied by
 * bounded boosts for importance, recency, confidence and pinning.
 */
export function fuse(lists: Partial<Record<SignalName, readonly Candidate[]>>, options: FusionOptions): RankedId[] {
  const entries = new Map<string, { signals: RankingSignals; explain: Partial<Record<SignalName, SignalExplain>> }>();
  const weights: Record<SignalName, number> = {
    keyword: options.method.keywordWeight,
    semantic: 1 - options.method.keywordWeight,
  };
  for (const name of ['keyword', 'semantic'] as const) {
    const list = lists[name];
    if (!list || list.length === 0) continue;
    for (const { candidate, explain } of contributions(list, options.method, weights[name], name)) {
      const entry = entries.get(candidate.id) ?? { signals: candidate.signals, explain: {} };
      entry.explain[name] = explain;
      entries.set(candidate.id, entry);
    }
  }
  const ranked: RankedId[] = [];
  for (const [id, entry] of entries) {
    const fused = (entry.explain.keyword?.contribution ?? 0) + (entry.explain.semantic?.contribution ?? 0);
    const boosts = boostsFor(entry.signals, options.now);
    const final = fused * boosts.importance * boosts.recency * boosts.confidence * boosts.pinned;
    const explain: Explanation = { ...entry.explain, fused, boosts, final };
    ranked.push({ id, score: final, explain });
  }
  return ranked.sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

/**
 * Bounded multiplicative boosts (together at most about ±10%): they reorder near-equal
 * results, never a strong match below a weak one.
 */
export function boostsFor(signals: RankingSignals, now: Date): Boosts {
  const importance = signals.importance === undefined ? 1 : 1 + 0.025 * (clamp(signals.importance, 1, 5) - 3);
  const ageDays = Math.max(0, (now.getTime() - signals.createdAt.getTime()) / DAY_MS);
  const recency = 1 + 0.02 * Math.pow(0.5, ageDays / RECENCY_HALF_LIFE_DAYS);
  const confidence = signals.confidence === undefined ? 1 : 0.98 + 0.02 * clamp(signals.confidence, 0, 1);
  const pinned = signals.pinned ? 1.02 : 1;
  return { importance, recency, confidence, pinned };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
