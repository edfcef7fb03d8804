/**
 * The maths of context_check's calibration (docs/context-check.md): a logistic regression over
 * the service's signals fitted by Newton's method with a little L2, and the measures of how well
 * a confidence matches what happens: expected calibration error, Brier score, log loss and the
 * reliability table. Pure, unit-tested (calibration.spec.ts); the bench feeds it.
 */
import { type ConfidenceSignals, type ConfidenceWeights } from '@cairn/context-check';

export interface Example {
  readonly signals: ConfidenceSignals;
  /** 1 when the top evidence was one of the answer's files. */
  readonly y: 0 | 1;
}

/** A prediction beside what happened. */
export interface Scored {
  readonly p: number;
  readonly y: 0 | 1;
}

export const SIGNALS = ['coverage', 'agreement', 'symbol', 'margin'] as const;
export type SignalName = (typeof SIGNALS)[number];

export interface FitOptions {
  /**
   * L2 penalty on the signal weights (not the bias), in units of the log-likelihood summed over
   * examples: small beside a few hundred examples, yet enough to keep a weight finite when its
   * signal separates the set.
   */
  readonly l2?: number;
  readonly iterations?: number;
  /**
   * Weights held as given rather than fitted: a signal that never varies in the set says nothing
   * about its weight (the L2 would merely pull it to 0), so the caller keeps the one it had.
   */
  readonly fixed?: Partial<Record<SignalName, number>>;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** Solves A x = b by Gaussian elimination with partial pivoting (A is small and symmetric positive definite). */
export function solve(matrix: readonly (readonly number[])[], vector: readonly number[]): number[] {
  const n = vector.length;
  const a = matrix.map((line, i) => [...line, vector[i] ?? 0]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) pivot = r;
    [a[col], a[pivot]] = [a[pivot], a[col]];
    const lead = a[col][col];
    if (Math.abs(lead) < 1e-12) throw new Error('singular system in the logistic fit');
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const factor = a[r][col] / lead;
      for (let c = col; c <= n; c++) a[r][c] -= factor * a[col][c];
    }
  }
  return a.map((line, i) => line[n] / line[i]);
}

/**
 * Maximum-likelihood logistic weights (penalised): Newton steps on the negative log-likelihood,
 * which for at most four parameters converge in a handful of iterations and need no learning rate.
 */
export function fitLogistic(examples: readonly Example[], options: FitOptions = {}): ConfidenceWeights {
  const l2 = options.l2 ?? 1;
  const fixed = options.fixed ?? {};
  const free = SIGNALS.filter((signal) => fixed[signal] === undefined);
  // Parameter 0 is the bias; then the free signals. Fixed ones enter as an offset.
  const rows = examples.map((example) => ({
    x: [1, ...free.map((signal) => example.signals[signal])],
    offset: SIGNALS.reduce((sum, signal) => sum + (fixed[signal] ?? 0) * example.signals[signal], 0),
    y: example.y,
  }));
  const size = free.length + 1;
  let w = new Array<number>(size).fill(0);
  for (let iteration = 0; iteration < (options.iterations ?? 100); iteration++) {
    const gradient = new Array<number>(size).fill(0);
    const hessian = Array.from({ length: size }, () => new Array<number>(size).fill(0));
    for (const { x, offset, y } of rows) {
      const p = sigmoid(offset + x.reduce((sum, value, i) => sum + value * w[i], 0));
      for (let i = 0; i < size; i++) {
        gradient[i] += (p - y) * x[i];
        for (let j = 0; j < size; j++) hessian[i][j] += p * (1 - p) * x[i] * x[j];
      }
    }
    // The bias gets a vanishing penalty only so that a set of one class still gives a solvable step.
    for (let i = 0; i < size; i++) {
      const penalty = i === 0 ? 1e-6 : l2;
      gradient[i] += penalty * w[i];
      hessian[i][i] += penalty;
    }
    const step = solve(hessian, gradient);
    w = w.map((value, i) => value - step[i]);
    if (Math.max(...step.map(Math.abs)) < 1e-9) break;
  }
  const weight = (signal: SignalName): number => fixed[signal] ?? w[free.indexOf(signal) + 1];
  return {
    bias: w[0],
    coverage: weight('coverage'),
    agreement: weight('agreement'),
    symbol: weight('symbol'),
    margin: weight('margin'),
  };
}

export interface ReliabilityBin {
  /** Lower edge of the bin; it spans [lower, lower + 1/bins), the last one includes 1. */
  readonly lower: number;
  readonly n: number;
  readonly meanConfidence: number;
  readonly accuracy: number;
}

/** Equal-width bins of the predicted probability; empty bins are left out. */
export function reliability(scored: readonly Scored[], bins = 10): ReliabilityBin[] {
  const groups = Array.from({ length: bins }, () => ({ n: 0, p: 0, y: 0 }));
  for (const { p, y } of scored) {
    const group = groups[Math.min(bins - 1, Math.max(0, Math.floor(p * bins)))];
    group.n += 1;
    group.p += p;
    group.y += y;
  }
  return groups.flatMap((group, i) =>
    group.n === 0
      ? []
      : [{ lower: i / bins, n: group.n, meanConfidence: group.p / group.n, accuracy: group.y / group.n }],
  );
}

/** Σ over bins of (bin share) × |observed accuracy − mean confidence|. */
export function expectedCalibrationError(scored: readonly Scored[], bins = 10): number {
  if (scored.length === 0) return Number.NaN;
  return reliability(scored, bins).reduce(
    (sum, bin) => sum + (bin.n / scored.length) * Math.abs(bin.accuracy - bin.meanConfidence),
    0,
  );
}

export function brierScore(scored: readonly Scored[]): number {
  if (scored.length === 0) return Number.NaN;
  return scored.reduce((sum, { p, y }) => sum + (p - y) ** 2, 0) / scored.length;
}

/** Mean negative log-likelihood (natural log); probabilities are clipped so one certainty cannot make it infinite. */
export function logLoss(scored: readonly Scored[]): number {
  if (scored.length === 0) return Number.NaN;
  const clip = (p: number) => Math.min(1 - 1e-12, Math.max(1e-12, p));
  return (
    -scored.reduce((sum, { p, y }) => sum + (y === 1 ? Math.log(clip(p)) : Math.log(1 - clip(p))), 0) / scored.length
  );
}

export interface CalibrationMetrics {
  readonly n: number;
  readonly baseRate: number;
  readonly ece: number;
  readonly brier: number;
  readonly logLoss: number;
  readonly reliability: ReliabilityBin[];
}

export function calibrationMetrics(scored: readonly Scored[], bins = 10): CalibrationMetrics {
  return {
    n: scored.length,
    baseRate: scored.length === 0 ? Number.NaN : scored.reduce((sum, { y }) => sum + y, 0) / scored.length,
    ece: expectedCalibrationError(scored, bins),
    brier: brierScore(scored),
    logLoss: logLoss(scored),
    reliability: reliability(scored, bins),
  };
}
