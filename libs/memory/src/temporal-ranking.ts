import { boostsFor, type Explanation, type RankedId } from '@cairn/search';
import { closeness, orderFactors, type ResolvedOrder, type ResolvedWhen } from '@cairn/temporal';
import { type Memory } from './contract/memory.types';

/** Candidates scoring at least this share of the best are the close matches an ordering cue orders. */
const ORDERED_SHARE = 0.7;

/** What a question's dates did to one result (explain). */
export interface TemporalExplain {
  readonly occurredAt: string;
  /** 1 inside the question's range, falling outside it; 1 when the question names no range. */
  readonly closeness: number;
  /** Added to the fused score (before the bounded boosts). */
  readonly added: number;
  /** Multiplier from an ordering cue; 1 without one. */
  readonly order: number;
}

export type RecallExplanation = Explanation & { readonly temporal?: TemporalExplain };

export interface TemporalHit {
  readonly id: string;
  readonly score: number;
  readonly explain: RecallExplanation;
}

/**
 * The unit of a date's weight: half the best fused score of the results, about what the best
 * result of one ranker earns (fusion scales scores to the method, so a fixed unit would not
 * do). A memory dated in the question's range gains at most this much, so a text match
 * clearly better than another still outranks it whatever their dates. With no results from
 * the rankers (a question that is only dates), any positive unit orders by date alone.
 */
function dateUnit(ranked: readonly RankedId[]): number {
  const best = ranked.reduce((max, hit) => Math.max(max, hit.explain.fused), 0);
  return best > 0 ? best / 2 : 1;
}

/**
 * Re-ranks after fusion by when memories occurred: each candidate (from the rankers, or dated
 * in the range without a word in common) gains `weight × closeness × dateUnit`, times its own
 * bounded boosts; then an ordering cue multiplies by up to ×1.25 for the earliest (latest).
 * Candidates from the rankers are never dropped; dated ones that are not near the range are.
 */
export function rankByTime(
  ranked: readonly RankedId[],
  datedIds: readonly string[],
  memories: ReadonlyMap<string, Memory>,
  when: ResolvedWhen | undefined,
  order: ResolvedOrder | undefined,
  now: Date,
): TemporalHit[] {
  const fromRankers = new Map(ranked.map((hit) => [hit.id, hit]));
  const unit = dateUnit(ranked);
  const ids = [...fromRankers.keys(), ...datedIds.filter((id) => !fromRankers.has(id))];
  const entries = ids.flatMap((id) => {
    const memory = memories.get(id);
    if (!memory) return [];
    const hit = fromRankers.get(id);
    const boosts =
      hit?.explain.boosts ??
      boostsFor(
        {
          importance: memory.importance,
          confidence: memory.confidence,
          pinned: memory.pinned,
          createdAt: memory.createdAt,
        },
        now,
      );
    const product = boosts.importance * boosts.recency * boosts.confidence * boosts.pinned;
    const near = when?.range ? closeness(memory.occurredAt, when.range) : 1;
    const added = when?.range ? when.weight * near * unit : 0;
    if (!hit && added === 0) return [];
    const explain: Explanation = hit?.explain ?? { fused: 0, boosts, final: 0 };
    return [{ id, memory, base: (hit?.score ?? 0) + added * product, explain, near, added }];
  });
  // "Currently", "the first time": which of the matches came first or last, so only the close
  // matches are ordered by date. Over the whole pool a weak but recent candidate would jump
  // ahead of the evidence (LongMemEval knowledge-update recall@10 fell 3 points that way).
  const best = entries.reduce((max, entry) => Math.max(max, entry.base), 0);
  const close = entries.filter((entry) => entry.base >= ORDERED_SHARE * best);
  const closeFactors = order
    ? orderFactors(
        close.map((entry) => entry.memory.occurredAt),
        order.direction,
      )
    : [];
  const factorOf = new Map(close.map((entry, index) => [entry.id, closeFactors[index] ?? 1]));
  const factors = entries.map((entry) => factorOf.get(entry.id) ?? 1);
  return entries
    .map((entry, index) => {
      const final = entry.base * factors[index];
      const temporal: TemporalExplain = {
        occurredAt: entry.memory.occurredAt.toISOString(),
        closeness: round(entry.near),
        added: entry.added,
        order: factors[index],
      };
      return { id: entry.id, score: final, explain: { ...entry.explain, temporal, final } };
    })
    .sort((a, b) => b.score - a.score || a.id.localeCompare(b.id));
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
