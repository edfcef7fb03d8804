import { type ConfidenceSignals } from './contract/context-check.types';

/**
 * How sure context_check is that the best evidence answers the question, as a probability
 * (docs/context-check.md). A logistic model over three signals every source gives the same way:
 *
 * - `coverage`: the share of the question's content terms found in the best piece of evidence
 *   (its text and path).
 * - `agreement`: the share of sources (memories, knowledge base, code) whose best piece covers at
 *   least half of the question: independent sources agreeing make a hit less likely a fluke.
 * - `symbol`: the question is the name of a symbol the code index defines (exactly).
 *
 * The weights were fitted by `npm run bench -- --only harness` (bench/harness/calibration-run.ts)
 * on 269 questions made from this repository's own commit history (a commit's subject as the
 * question, the files it changed as the answer, y = 1 when the top evidence is one of them):
 * Newton's method with L2 1 on 128 of them (even hashes), checked on the 141 others. Held out:
 * ECE 0.136 and Brier 0.263; the weights guessed before scored 0.183 and 0.281, and no skill
 * (the fit half's base rate for every question) 0.141 and 0.269. Coverage is a weak signal on
 * such questions, so the confidence of a sentence stays between about 0.33 and 0.76. `symbol`
 * never fires on a sentence, so its weight is not fitted: it stays at the earlier 1.4 until a
 * labelled set has questions that are names.
 */
export const CONFIDENCE_WEIGHTS = { bias: -0.7, coverage: 1.24, agreement: 0.61, symbol: 1.4 } as const;

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
