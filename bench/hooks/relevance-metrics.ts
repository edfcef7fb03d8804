import { type CaseKind } from './relevance-set';
import { type Observation, type ObservedHit } from './relevance-eval';

/** What a selection keeps of one prompt's ranked results, in order. */
export type Selection = (hits: readonly ObservedHit[]) => readonly ObservedHit[];

/** What a selection keeps over the labelled set. */
export interface SelectionScore {
  /** Kept results labelled relevant, over all kept (1 when nothing is kept). */
  readonly precision: number;
  /** Labelled relevant memories kept, over all labelled (ranked or not). */
  readonly recall: number;
  readonly f1: number;
  /** F-beta with beta 0.5: precision counts twice as much as recall (a wrong memory injected costs context and misleads). */
  readonly f05: number;
  readonly kept: number;
  readonly relevantKept: number;
  readonly relevantTotal: number;
  /** Prompts labelled unrelated to their project for which nothing was kept, by where they come from. */
  readonly silentOnUnrelated: number;
  readonly silentOnForeign: number;
  readonly silentOnGeneral: number;
  /** Prompts with labelled memories for which at least one of them was kept. */
  readonly servedRelated: number;
}

export function fBeta(precision: number, recall: number, beta: number): number {
  const b2 = beta * beta;
  const denominator = b2 * precision + recall;
  return denominator === 0 ? 0 : ((1 + b2) * precision * recall) / denominator;
}

export function scoreSelection(observations: readonly Observation[], select: Selection): SelectionScore {
  let kept = 0;
  let relevantKept = 0;
  let relevantTotal = 0;
  let related = 0;
  let served = 0;
  const silent = new Map<CaseKind, { asked: number; silent: number }>();
  for (const observation of observations) {
    const chosen = select(observation.hits);
    const hits = chosen.filter((hit) => observation.relevant.has(hit.key)).length;
    kept += chosen.length;
    relevantKept += hits;
    relevantTotal += observation.relevant.size;
    if (observation.relevant.size === 0) {
      const tally = silent.get(observation.kind) ?? { asked: 0, silent: 0 };
      tally.asked += 1;
      if (chosen.length === 0) tally.silent += 1;
      silent.set(observation.kind, tally);
    } else {
      related += 1;
      if (hits > 0) served += 1;
    }
  }
  const share = (kinds: CaseKind[]) => {
    const asked = kinds.reduce((sum, kind) => sum + (silent.get(kind)?.asked ?? 0), 0);
    const quiet = kinds.reduce((sum, kind) => sum + (silent.get(kind)?.silent ?? 0), 0);
    return asked === 0 ? 1 : quiet / asked;
  };
  const precision = kept === 0 ? 1 : relevantKept / kept;
  const recall = relevantTotal === 0 ? 1 : relevantKept / relevantTotal;
  return {
    precision,
    recall,
    f1: fBeta(precision, recall, 1),
    f05: fBeta(precision, recall, 0.5),
    kept,
    relevantKept,
    relevantTotal,
    silentOnUnrelated: share(['foreign', 'general']),
    silentOnForeign: share(['foreign']),
    silentOnGeneral: share(['general']),
    servedRelated: related === 0 ? 1 : served / related,
  };
}

/** A selection policy at a given threshold (the server's filter, then what the client keeps of it). */
export type Policy = (threshold: number) => Selection;

export interface CurvePoint extends SelectionScore {
  readonly threshold: number;
}

/** 0, 0.01, … 1: the thresholds a choice is made among. */
export const THRESHOLD_GRID: readonly number[] = Array.from({ length: 101 }, (_, i) => i / 100);

export function curve(
  observations: readonly Observation[],
  policy: Policy,
  thresholds: readonly number[],
): CurvePoint[] {
  return thresholds.map((threshold) => ({ threshold, ...scoreSelection(observations, policy(threshold)) }));
}

/** The grid threshold of best F0.5 (the lower one on a tie). */
export function bestThreshold(observations: readonly Observation[], policy: Policy): CurvePoint {
  let best: CurvePoint | undefined;
  for (const point of curve(observations, policy, THRESHOLD_GRID)) {
    if (!best || point.f05 > best.f05 + 1e-12) best = point;
  }
  return best!;
}

export interface HeldOutFold {
  readonly heldOut: string;
  /** The threshold of best F0.5 on the other projects. */
  readonly threshold: number;
  readonly score: SelectionScore;
}

/**
 * Leave one project out: the threshold is chosen on the other projects and measured on the one
 * left out, five times over. How far these thresholds wander, and how the pooled held-out
 * scores compare with the whole set's, says how much the choice depends on this set.
 */
export function leaveOneProjectOut(
  observations: readonly Observation[],
  policy: Policy,
): { folds: HeldOutFold[]; pooled: SelectionScore } {
  const projects = [...new Set(observations.map((observation) => observation.project))];
  const folds = projects.map((heldOut) => {
    const { threshold } = bestThreshold(
      observations.filter((observation) => observation.project !== heldOut),
      policy,
    );
    const held = observations.filter((observation) => observation.project === heldOut);
    return { heldOut, threshold, score: scoreSelection(held, policy(threshold)) };
  });
  // Pooled: every held-out prompt scored at its own fold's threshold.
  const thresholdOf = new Map(folds.map((fold) => [fold.heldOut, fold.threshold]));
  const perPrompt = observations.map((observation) => ({
    ...observation,
    hits: policy(thresholdOf.get(observation.project) ?? 1)(observation.hits),
  }));
  return { folds, pooled: scoreSelection(perPrompt, (hits) => hits) };
}
