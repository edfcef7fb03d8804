import { type ConfidenceSignals } from '@cairn/context-check';
import { prng } from '../search/templates';
import {
  brierScore,
  calibrationMetrics,
  type Example,
  expectedCalibrationError,
  fitLogistic,
  logLoss,
  reliability,
  solve,
} from './calibration';

const TRUE = { bias: -2, coverage: 3, agreement: 1.5, symbol: 1, margin: 2 };

/** Labels drawn from a known logistic model with a fixed seed: the fit must find its weights again. */
function synthetic(n: number, seed: number): Example[] {
  const random = prng(seed);
  return Array.from({ length: n }, () => {
    const signals: ConfidenceSignals = {
      coverage: random(),
      agreement: Math.floor(random() * 4) / 3,
      symbol: random() < 0.3 ? 1 : 0,
      margin: random() * 0.5,
    };
    const z =
      TRUE.bias +
      TRUE.coverage * signals.coverage +
      TRUE.agreement * signals.agreement +
      TRUE.symbol * signals.symbol +
      TRUE.margin * signals.margin;
    return { signals, y: random() < 1 / (1 + Math.exp(-z)) ? 1 : 0 };
  });
}

describe('logistic fit', () => {
  it('solves a small linear system', () => {
    const x = solve(
      [
        [4, 1],
        [1, 3],
      ],
      [1, 2],
    );
    expect(x[0]).toBeCloseTo(1 / 11, 10);
    expect(x[1]).toBeCloseTo(7 / 11, 10);
  });

  it('recovers the weights that generated a synthetic set', () => {
    const fitted = fitLogistic(synthetic(20_000, 7), { l2: 0.01 });
    expect(Math.abs(fitted.bias - TRUE.bias)).toBeLessThan(0.25);
    expect(Math.abs(fitted.coverage - TRUE.coverage)).toBeLessThan(0.25);
    expect(Math.abs(fitted.agreement - TRUE.agreement)).toBeLessThan(0.25);
    expect(Math.abs(fitted.symbol - TRUE.symbol)).toBeLessThan(0.25);
  });

  it('holds a fixed weight and fits the others around it', () => {
    const fitted = fitLogistic(synthetic(20_000, 11), { l2: 0.01, fixed: { symbol: TRUE.symbol } });
    expect(fitted.symbol).toBe(TRUE.symbol);
    expect(Math.abs(fitted.coverage - TRUE.coverage)).toBeLessThan(0.25);
    expect(Math.abs(fitted.agreement - TRUE.agreement)).toBeLessThan(0.25);
  });

  it('stays finite when a signal never varies or one class is missing', () => {
    const flat = synthetic(500, 3).map((example) => ({ ...example, signals: { ...example.signals, symbol: 0 } }));
    expect(fitLogistic(flat).symbol).toBeCloseTo(0, 6);
    const allWrong = flat.map((example) => ({ ...example, y: 0 as const }));
    const weights = fitLogistic(allWrong);
    expect(Object.values(weights).every(Number.isFinite)).toBe(true);
    expect(weights.bias).toBeLessThan(-3);
  });
});

describe('calibration measures', () => {
  // Bin [0.2, 0.3): two at 0.2, one right → |0.5 - 0.2| = 0.3; bin [0.9, 1]: two at 0.9, both right → 0.1.
  const scored = [
    { p: 0.2, y: 1 as const },
    { p: 0.2, y: 0 as const },
    { p: 0.9, y: 1 as const },
    { p: 0.9, y: 1 as const },
  ];

  it('bins the predictions into a reliability table', () => {
    expect(reliability(scored)).toEqual([
      { lower: 0.2, n: 2, meanConfidence: 0.2, accuracy: 0.5 },
      { lower: 0.9, n: 2, meanConfidence: 0.9, accuracy: 1 },
    ]);
    // 1 itself falls into the last bin.
    expect(reliability([{ p: 1, y: 1 }])[0]?.lower).toBe(0.9);
  });

  it('computes ECE, Brier and log loss of a known case', () => {
    expect(expectedCalibrationError(scored)).toBeCloseTo(0.5 * 0.3 + 0.5 * 0.1, 12);
    expect(brierScore(scored)).toBeCloseTo((0.64 + 0.04 + 0.01 + 0.01) / 4, 12);
    expect(logLoss(scored)).toBeCloseTo(-(Math.log(0.2) + Math.log(0.8) + 2 * Math.log(0.9)) / 4, 12);
    const metrics = calibrationMetrics(scored);
    expect(metrics.n).toBe(4);
    expect(metrics.baseRate).toBe(0.75);
  });

  it('calls a perfectly calibrated, certain predictor perfect', () => {
    const perfect = [
      { p: 1, y: 1 as const },
      { p: 0, y: 0 as const },
    ];
    expect(expectedCalibrationError(perfect)).toBe(0);
    expect(brierScore(perfect)).toBe(0);
    expect(logLoss(perfect)).toBeLessThan(1e-9);
  });
});
