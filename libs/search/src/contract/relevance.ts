import { z } from 'zod';

/** The absolute signals a calibrated relevance is made of (RelevanceScoring). */
export interface RelevanceSignals {
  /** Share of the query's IDF-weighted terms the item contains, 0–1. */
  readonly coverage: number;
  /** Cosine similarity with the query under the active embedding model; null without a vector. */
  readonly cosine: number | null;
}

/** One item's calibrated relevance with the signals it came from. */
export interface ScoredRelevance extends RelevanceSignals {
  /** 0–1, comparable across queries; see docs/hooks.md for what the thresholds measured. */
  readonly relevance: number;
}

/**
 * How one embedder's signals become a relevance, and the threshold measured for it.
 *
 * relevance = 1 − (1 − coverage) · (1 − cosineWeight · max(0, cosine))
 *
 * Two pieces of evidence, either of which can show that a memory is about the question: the
 * share of the question's IDF-weighted terms it contains, and how close the model puts their
 * meanings. Combined as independent evidence (a noisy-OR), so a memory that shares the
 * question's rare words or one that says the same thing in other words both rise, and neither
 * signal alone has to be near 1. One weight per model because cosine scales differ between
 * models; none for the built-in hash embedder, whose vectors are word overlap again (adding
 * its cosine lowered precision on the labelled set and raised recall not at all).
 */
export interface RelevanceCalibration {
  /** The embedding model the calibration was measured with, or `keyword` (term coverage alone). */
  readonly basis: string;
  /** How much a cosine similarity of 1 counts as evidence; 0 when the model's cosine is not used. */
  readonly cosineWeight: number;
  /** The default threshold (`minRelevance: "default"`), chosen on bench/hooks/relevance-set.json (docs/hooks.md). */
  readonly threshold: number;
}

/** Each ranked item's calibrated relevance, and the calibration that made it. */
export interface RelevanceScores {
  readonly byId: ReadonlyMap<string, ScoredRelevance>;
  readonly calibration: RelevanceCalibration;
}

/** How a search applied a relevance threshold, for its report. */
export interface RelevanceReport {
  /** The threshold results had to reach; null when none was asked for. */
  readonly threshold: number | null;
  /** request: the caller's number; default: the calibrated default of `calibration`; none. */
  readonly source: 'request' | 'default' | 'none';
  /** The calibration used: the active embedding model's id, or `keyword` when no vector took part. */
  readonly calibration: string;
  /** Ranked results left out for falling below the threshold. */
  readonly dropped: number;
}

/** A relevance threshold in a search request: a number, or the calibrated default of the active model. */
export const minRelevanceSchema = z
  .union([z.number().min(0).max(1), z.literal('default')])
  .describe('Drop results below this calibrated relevance (0-1); "default": the active model\'s threshold');

export const relevanceExplainSchema = z.object({
  coverage: z.number().describe("Share of the query's IDF-weighted terms the result contains, 0-1"),
  cosine: z.number().nullable().describe('Cosine similarity under the active embedding model; null without a vector'),
});

export const relevanceReportSchema = z.object({
  threshold: z.number().nullable().describe('The relevance results had to reach; null when none was asked for'),
  source: z.enum(['request', 'default', 'none']),
  calibration: z
    .string()
    .describe('The calibration applied: the active embedding model id, or "keyword" when no vector took part'),
  dropped: z.number().int().describe('Results left out for falling below the threshold'),
});
