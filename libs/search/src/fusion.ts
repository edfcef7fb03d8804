import {
  type Boosts,
  type Candidate,
  type Explanation,
  type RankedId,
  type RankingSignals,
  type SignalExplain,
  type SignalName,
} from './contract/search.types';

export interface FusionOptions {
  /** RRF constant: larger flattens the difference between ranks. */
  readonly k: number;
  readonly now: Date;
  /** Per-ranker weight (default 1): a ranker known to be weak counts for less. */
  readonly weights?: Partial<Record<SignalName, number>>;
}

export const DEFAULT_RRF_K = 60;
const DAY_MS = 86_400_000;
const RECENCY_HALF_LIFE_DAYS = 30;

/**
 * Reciprocal rank fusion in which each ranker's contribution is also weighted by the
 * candidate's score relative to that ranker's best: rank order decides, as in plain RRF,
 * but a vague match far below a precise one cannot overtake it through boosts. Candidates
 * with equal scores share a rank, so ties are broken by the boosts, not by chance.
 */
export function fuse(lists: Partial<Record<SignalName, readonly Candidate[]>>, options: FusionOptions): RankedId[] {
  const entries = new Map<string, { signals: RankingSignals; explain: Partial<Record<SignalName, SignalExplain>> }>();
  for (const name of ['keyword', 'semantic'] as const) {
    const list = lists[name];
    if (!list || list.length === 0) continue;
    const sorted = [...list].sort((a, b) => b.score - a.score);
    const best = Math.max(sorted[0]?.score ?? 0, Number.EPSILON);
    let rank = 0;
    let previous = Number.NaN;
    sorted.forEach((candidate, index) => {
      if (candidate.score !== previous) rank = index + 1;
      previous = candidate.score;
      const relative = Math.max(0, candidate.score) / best;
      const contribution = ((options.weights?.[name] ?? 1) * relative) / (options.k + rank);
      const entry = entries.get(candidate.id) ?? { signals: candidate.signals, explain: {} };
      entry.explain[name] = { rank, score: candidate.score, relative, contribution };
      entries.set(candidate.id, entry);
    });
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
