import { type ConfidenceSignals } from './contract/context-check.types';

/**
 * How sure context_check is that the best evidence answers the question, as a probability
 * (docs/context-check.md). A logistic model over three signals every source gives the same way:
 *
 * - `coverage`: the share of the question's content terms found in the best piece of evidence
 *   (its text and path); the strongest single signal on the labelled set.
 * - `agreement`: the share of sources (memories, knowledge base, code) whose best piece covers at
 *   least half of the question: independent sources agreeing make a hit less likely a fluke.
 * - `symbol`: the question names a symbol the code index defines exactly.
 *
 * The weights were fitted by `npm run bench -- --only harness` (bench/harness/calibration.ts) on
 * questions made from this repository's own commit history (a commit's subject as the question,
 * the files it changed as the answer) and are checked there on a held-out half: the report
 * prints the expected calibration error and the Brier score beside the fit.
 */
export const CONFIDENCE_WEIGHTS = { bias: -3.2, coverage: 4.6, agreement: 1.1, symbol: 1.4 } as const;

export type ConfidenceWeights = { readonly bias: number } & { readonly [K in keyof ConfidenceSignals]: number };

export function confidenceOf(signals: ConfidenceSignals, weights: ConfidenceWeights = CONFIDENCE_WEIGHTS): number {
  const z =
    weights.bias +
    weights.coverage * signals.coverage +
    weights.agreement * signals.agreement +
    weights.symbol * signals.symbol;
  return 1 / (1 + Math.exp(-z));
}

/** Below this the answer says what to read next rather than relying on the evidence. */
export const LOW_CONFIDENCE = 0.5;
export const HIGH_CONFIDENCE = 0.8;

export function levelOf(confidence: number): 'high' | 'medium' | 'low' {
  return confidence >= HIGH_CONFIDENCE ? 'high' : confidence >= LOW_CONFIDENCE ? 'medium' : 'low';
}
