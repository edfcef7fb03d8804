import { type RelevanceReport, type RelevanceScores } from '@cairn/search';

/** A recall request's relevance threshold: a number, the calibrated default, or none. */
export type MinRelevance = number | 'default' | undefined;

/**
 * The ranked hits that reach the threshold, in their order, with the report of what applied.
 * Without scores (a query of dates only has no words to judge relevance by) nothing is left
 * out and there is no report. A hit the scoring did not see counts as relevance 0.
 */
export function applyRelevance<H extends { readonly id: string }>(
  ranked: readonly H[],
  scores: RelevanceScores | undefined,
  minRelevance: MinRelevance,
): { kept: H[]; report?: RelevanceReport } {
  if (!scores) return { kept: [...ranked] };
  const calibration = scores.calibration.basis;
  if (minRelevance === undefined) {
    return { kept: [...ranked], report: { threshold: null, source: 'none', calibration, dropped: 0 } };
  }
  const threshold = minRelevance === 'default' ? scores.calibration.threshold : minRelevance;
  const kept = ranked.filter((hit) => (scores.byId.get(hit.id)?.relevance ?? 0) >= threshold);
  return {
    kept,
    report: {
      threshold,
      source: minRelevance === 'default' ? 'default' : 'request',
      calibration,
      dropped: ranked.length - kept.length,
    },
  };
}
