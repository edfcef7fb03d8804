import { type EmbeddingModel } from '@cairn/embeddings';
import { type RelevanceSignals } from './contract/relevance';

/**
 * How one embedder's signals become a relevance (PROVISIONAL: replaced after calibration).
 */
export interface RelevanceCalibration {
  readonly basis: string;
  readonly cosine?: { readonly floor: number; readonly ceiling: number };
  readonly threshold: number;
}

export const KEYWORD_CALIBRATION: RelevanceCalibration = { basis: 'keyword', threshold: 0.5 };

const CALIBRATIONS: Readonly<Record<string, RelevanceCalibration>> = {
  'cairn-hash-v1': { basis: 'cairn-hash-v1', cosine: { floor: 0.1, ceiling: 0.6 }, threshold: 0.5 },
  'local-all-minilm-l6-v2-384': { basis: 'local-all-minilm-l6-v2-384', cosine: { floor: 0.15, ceiling: 0.6 }, threshold: 0.5 },
};

export function relevanceCalibration(model: EmbeddingModel | undefined): RelevanceCalibration {
  if (!model) return KEYWORD_CALIBRATION;
  return CALIBRATIONS[model.id] ?? { ...KEYWORD_CALIBRATION };
}

export function relevanceOf(signals: RelevanceSignals, calibration: RelevanceCalibration): number {
  const coverage = clamp01(signals.coverage);
  if (signals.cosine === null || !calibration.cosine) return coverage;
  const { floor, ceiling } = calibration.cosine;
  return Math.max(coverage, clamp01((signals.cosine - floor) / (ceiling - floor)));
}

function clamp01(value: number): number {
  return Math.min(1, Math.max(0, value));
}
