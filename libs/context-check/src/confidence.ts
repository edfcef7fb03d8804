import { type ConfidenceSignals } from './contract/context-check.types';

/**
 * How sure context_check is that the best evidence answers the question, as a probability
 * (docs/context-check.md). A logistic model over four signals every source gives the same way:
 *
 * - `coverage`: the share of the question's content terms found in the best piece of evidence
 *   (its text and path).
 * - `agreement`: the share of sources (memories, knowledge base, code) whose best piece covers at
 *   least half of the question: independent sources agreeing make a hit less likely a fluke.
 * - `symbol`: the question names a symbol the code index defines, exactly (the whole question, or
 *   a word in it spelled like code).
 * - `margin`: how far the best piece stands out from the best piece of another file or source.
 *
 * The weights were fitted by `npm run bench -- --only harness` (bench/harness/calibration-run.ts)
 * on 279 questions made from this repository's own commit history (a commit's subject as the
 * question, the files it changed as the answer, y = 1 when the top evidence is one of them):
 * Newton's method with L2 1 on 133 of them (even hashes), checked on the 146 others. Held out:
 * ECE 0.137, Brier 0.261, log loss 0.715, against 0.151, 0.272 and 0.737 for no skill (the fit
 * half's base rate for every question). The signals tell right from wrong only a little on such
 * questions, so a sentence's confidence stays between about 0.34 and 0.8 (docs/context-check.md).
 */
export const CONFIDENCE_WEIGHTS = { bias: -0.66, coverage: 1.1, agreement: 0.46, symbol: -0.2, margin: 1.16 } as const;

export type ConfidenceWeights = { readonly bias: number } & { readonly [K in keyof ConfidenceSignals]: number };

export function confidenceOf(signals: ConfidenceSignals, weights: ConfidenceWeights = CONFIDENCE_WEIGHTS): number {
  const z =
    weights.bias +
    weights.coverage * signals.coverage +
    weights.agreement * signals.agreement +
    weights.symbol * signals.symbol +
    weights.margin * signals.margin;
  return 1 / (1 + Math.exp(-z));
}

/** Below this the answer says what to read next rather than relying on the evidence. */
export const LOW_CONFIDENCE = 0.5;
export const HIGH_CONFIDENCE = 0.8;

export function levelOf(confidence: number): 'high' | 'medium' | 'low' {
  return confidence >= HIGH_CONFIDENCE ? 'high' : confidence >= LOW_CONFIDENCE ? 'medium' : 'low';
}
