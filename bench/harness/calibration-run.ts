/**
 * context_check's calibration on this repository's history (docs/context-check.md): each
 * labelled question (labelled-set.ts) asked over MCP against the index of the current tree,
 * labelled 1 when the top evidence is one of the files its commit changed; logistic weights
 * fitted on one half (by hash parity) and both the fitted weights and those in confidence.ts
 * measured on the other.
 */
import {
  CONFIDENCE_WEIGHTS,
  confidenceOf,
  type ConfidenceSignals,
  type ConfidenceWeights,
  type ContextCheckResult,
} from '@cairn/context-check';
import { type ResultRow, row } from '../lib/report';
import {
  type CalibrationMetrics,
  calibrationMetrics,
  type Example,
  fitLogistic,
  type ReliabilityBin,
  SIGNALS,
  type SignalName,
} from './calibration';
import { type HarnessWorld } from './fixture';
import { evidencePath, readLabelledSet, splitOf } from './labelled-set';

/** A little L2 (summed log-likelihood units) for about 170 fitted questions: see calibration.ts. */
const L2 = 1;

export interface Asked {
  readonly commit: string;
  readonly question: string;
  readonly files: readonly string[];
  readonly split: 'fit' | 'heldOut';
  readonly signals: ConfidenceSignals;
  readonly evidence: number;
  readonly top: string | null;
  readonly y: 0 | 1;
  /** What the service answered (the weights it was built with). */
  readonly confidence: number;
}

export interface CalibrationOutcome {
  readonly rows: ResultRow[];
  readonly notes: string[];
  readonly data: unknown;
}

/** What the service would answer with `weights`: no evidence at all is confidence 0, as there. */
const predict = (asked: Asked, weights: ConfidenceWeights): number =>
  asked.evidence === 0 ? 0 : confidenceOf(asked.signals, weights);

const rounded = (weights: ConfidenceWeights): ConfidenceWeights => ({
  bias: Math.round(weights.bias * 100) / 100,
  coverage: Math.round(weights.coverage * 100) / 100,
  agreement: Math.round(weights.agreement * 100) / 100,
  symbol: Math.round(weights.symbol * 100) / 100,
  margin: Math.round(weights.margin * 100) / 100,
});

export async function runCalibration(
  world: HarnessWorld,
  root: string,
  limit: number,
  log: (line: string) => void,
): Promise<CalibrationOutcome> {
  const history = readLabelledSet(root, limit);
  if (history.shallow) {
    const note =
      'harness calibration: SKIPPED, the clone is shallow (no history to make the labelled set from); ' +
      'run in a full clone (git fetch --unshallow).';
    log(note);
    return { rows: [], notes: [note], data: { skipped: 'shallow clone' } };
  }
  const asked: Asked[] = [];
  log(`harness: context_check for ${history.set.length} questions from the git history`);
  for (const item of history.set) {
    const result = await world.call('context_check', { question: item.question, limit: 3 });
    const answer = result.structuredContent as unknown as ContextCheckResult;
    const top = answer.evidence[0]?.ref ?? null;
    asked.push({
      ...item,
      split: splitOf(item.commit),
      signals: answer.signals,
      evidence: answer.evidence.length,
      top,
      y: top !== null && item.files.includes(evidencePath(top)) ? 1 : 0,
      confidence: answer.confidence,
    });
  }
  const fitSet = asked.filter((item) => item.split === 'fit');
  const heldOut = asked.filter((item) => item.split === 'heldOut');
  const examples: Example[] = fitSet.map((item) => ({ signals: item.signals, y: item.y }));
  // A signal constant over the fit half carries no evidence about its weight: keep the shipped one.
  const constant = SIGNALS.filter((signal) => new Set(examples.map((example) => example.signals[signal])).size < 2);
  const fixed: Partial<Record<SignalName, number>> = Object.fromEntries(
    constant.map((signal) => [signal, CONFIDENCE_WEIGHTS[signal]]),
  );
  // Rounded as they are written into confidence.ts, so the figures are those of the shipped model.
  const fitted = rounded(fitLogistic(examples, { l2: L2, fixed }));
  const measure = (weights: ConfidenceWeights, items: readonly Asked[]): CalibrationMetrics =>
    calibrationMetrics(items.map((item) => ({ p: predict(item, weights), y: item.y })));
  const heldOutFitted = measure(fitted, heldOut);
  const heldOutCurrent = measure(CONFIDENCE_WEIGHTS, heldOut);
  // No skill: every held-out question given the fit half's base rate. A model worth its signals beats it.
  const fitRate = fitSet.reduce((sum, item) => sum + item.y, 0) / Math.max(1, fitSet.length);
  const heldOutConstant = calibrationMetrics(heldOut.map((item) => ({ p: fitRate, y: item.y })));

  const name = 'harness';
  const metric = (what: string) => `context_check held-out ${what} (n ${heldOut.length}), fitted`;
  const current = 'weights in confidence.ts';
  const rows = [
    row(name, metric('ECE, 10 bins'), 'score', heldOutFitted.ece, { name: current, value: heldOutCurrent.ece }),
    row(name, metric('Brier score'), 'score', heldOutFitted.brier, { name: current, value: heldOutCurrent.brier }),
    row(name, metric('log loss'), 'score', heldOutFitted.logLoss, { name: current, value: heldOutCurrent.logLoss }),
  ];
  const notes = [
    `harness calibration: ${asked.length} questions from commit subjects (>= 4 words, 1-4 files all still in the ` +
      `tree, no merges or reverts, scope prefix stripped), split by hash parity: ${fitSet.length} fit, ` +
      `${heldOut.length} held out; y = 1 when context_check's top evidence is a file the commit changed. ` +
      `Base rate: fit ${rate(fitSet)}, held out ${rate(heldOut)}.`,
    `harness calibration: fitted (Newton, L2 ${L2} on the signal weights) ${JSON.stringify(fitted)}; ` +
      `in confidence.ts ${JSON.stringify(CONFIDENCE_WEIGHTS)}.` +
      (constant.length > 0
        ? ` Not fitted, constant over the fit half, kept as in confidence.ts: ${constant.join(', ')}.`
        : ''),
    `harness calibration, held out, fitted: ${summary(heldOutFitted)}`,
    `harness calibration, held out, confidence.ts: ${summary(heldOutCurrent)}`,
    `harness calibration, held out, no skill (the fit half's base rate for every question): ${summary(heldOutConstant)}`,
    'harness reliability (held out; bin: mean confidence / observed accuracy / n), fitted | confidence.ts:',
    ...reliabilityLines(heldOutFitted.reliability, heldOutCurrent.reliability),
  ];
  return {
    rows,
    notes,
    data: {
      questions: asked.length,
      fit: fitSet.length,
      heldOut: heldOut.length,
      l2: L2,
      fitted,
      notFitted: constant,
      current: CONFIDENCE_WEIGHTS,
      heldOutFitted,
      heldOutCurrent,
      heldOutConstant,
      inSampleFitted: measure(fitted, fitSet),
      asked,
    },
  };
}

function rate(items: readonly Asked[]): string {
  return items.length === 0 ? 'n/a' : (items.reduce((sum, item) => sum + item.y, 0) / items.length).toFixed(3);
}

function summary(metrics: CalibrationMetrics): string {
  return (
    `n ${metrics.n}, base rate ${metrics.baseRate.toFixed(3)}, ECE ${metrics.ece.toFixed(3)}, ` +
    `Brier ${metrics.brier.toFixed(3)}, log loss ${metrics.logLoss.toFixed(3)}`
  );
}

function reliabilityLines(fitted: readonly ReliabilityBin[], current: readonly ReliabilityBin[]): string[] {
  const cell = (bin: ReliabilityBin | undefined) =>
    bin
      ? `${bin.meanConfidence.toFixed(2)} / ${bin.accuracy.toFixed(2)} / ${String(bin.n).padStart(3)}`
      : '        -         ';
  return Array.from({ length: 10 }, (_, i) => i / 10).flatMap((lower) => {
    const a = fitted.find((bin) => Math.abs(bin.lower - lower) < 1e-9);
    const b = current.find((bin) => Math.abs(bin.lower - lower) < 1e-9);
    if (!a && !b) return [];
    return [
      `  [${lower.toFixed(1)}, ${(lower + 0.1).toFixed(1)}${lower >= 0.9 ? ']' : ')'}  ${cell(a)}  |  ${cell(b)}`,
    ];
  });
}
