import { type EmbeddingModel } from '@cairn/embeddings';
import { type RelevanceCalibration, type RelevanceSignals } from './contract/relevance';

/**
 * Term coverage alone, for keyword searches and for models without a calibration of their own:
 * a third of the question's IDF-weighted terms. Chosen (with the hash embedder, where it is the
 * same rule) as the threshold of best F0.5 on the labelled set; it was the best threshold in
 * each of the five leave-one-project-out folds too.
 */
export const KEYWORD_CALIBRATION: RelevanceCalibration = { basis: 'keyword', cosineWeight: 0, threshold: 0.33 };

/**
 * Measured calibrations by model id (`npm run eval -- --relevance --provider hash|local`, figures
 * in docs/hooks.md). A model not listed falls back to term coverage alone: cosine scales differ
 * too much between models to guess one, and a wrong guess would inject unrelated memories.
 */
const CALIBRATIONS: ReadonlyMap<string, RelevanceCalibration> = new Map([
  ['cairn-hash-v1', { ...KEYWORD_CALIBRATION, basis: 'cairn-hash-v1' }],
  // all-MiniLM-L6-v2 puts a question and the memory that answers it at cosine 0.35–0.75 (median
  // 0.47 on the labelled set) and unrelated pairs under 0.25; 0.7 and 0.45 were the best weight
  // and threshold by F0.5 on the whole set and in four of five leave-one-project-out folds.
  ['local-all-minilm-l6-v2-384', { basis: 'local-all-minilm-l6-v2-384', cosineWeight: 0.7, threshold: 0.45 }],
]);

/** The calibration for a search that used `model`'s vectors, or term coverage alone (no vector, or no calibration for it). */
export function relevanceCalibration(model: EmbeddingModel | undefined): RelevanceCalibration {
  return (model && CALIBRATIONS.get(model.id)) ?? KEYWORD_CALIBRATION;
}

/** Whether `model` has a calibration of its own (else relevance ignores its vectors). */
export function isCalibrated(model: EmbeddingModel): boolean {
  return CALIBRATIONS.has(model.id);
}

/** The calibrated relevance, 0–1 (see RelevanceCalibration). A missing cosine counts as no semantic evidence. */
export function relevanceOf(signals: RelevanceSignals, calibration: RelevanceCalibration): number {
  const coverage = clamp01(signals.coverage);
  const semantic = signals.cosine === null ? 0 : clamp01(calibration.cosineWeight * signals.cosine);
  return 1 - (1 - coverage) * (1 - semantic);
}

function clamp01(value: number): number {
  return Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
}
