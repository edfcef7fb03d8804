import { type Observation, type ObservedHit } from './relevance-eval';
import { bestThreshold, fBeta, leaveOneProjectOut, type Policy, scoreSelection } from './relevance-metrics';

const hit = (key: string, relevance: number, rank = 1): ObservedHit => ({
  key,
  rank,
  relevance,
  coverage: relevance,
  cosine: null,
});

const observation = (
  project: string,
  relevant: string[],
  hits: ObservedHit[],
  kind: Observation['kind'] = relevant.length ? 'related' : 'general',
): Observation => ({
  project,
  prompt: `${project}: ${hits.map((h) => h.key).join(' ')}`,
  kind,
  relevant: new Set(relevant),
  hits,
});

const atThreshold: Policy = (threshold) => (hits) => hits.filter((h) => h.relevance >= threshold);

describe('relevance metrics', () => {
  const observations = [
    observation('a', ['a1'], [hit('a1', 0.9), hit('a2', 0.5)]),
    observation('a', ['a3'], [hit('a2', 0.6)]),
    observation('a', [], [hit('a1', 0.2)]),
    observation('b', [], [hit('b1', 0.7)], 'foreign'),
  ];

  it('counts precision over what is kept and recall over every labelled memory, ranked or not', () => {
    const score = scoreSelection(observations, atThreshold(0.55));
    // Kept: a1 (relevant), a2 (not), b1 (not); a3 was never ranked.
    expect(score).toMatchObject({ kept: 3, relevantKept: 1, relevantTotal: 2 });
    expect(score.precision).toBeCloseTo(1 / 3, 12);
    expect(score.recall).toBeCloseTo(1 / 2, 12);
    expect(score.silentOnGeneral).toBe(1);
    expect(score.silentOnForeign).toBe(0);
    expect(score.silentOnUnrelated).toBeCloseTo(1 / 2, 12);
    expect(score.servedRelated).toBeCloseTo(1 / 2, 12);
  });

  it('calls precision 1 when nothing is kept, so a silent threshold is judged by its recall', () => {
    expect(scoreSelection(observations, atThreshold(1)).precision).toBe(1);
    expect(scoreSelection(observations, atThreshold(1)).recall).toBe(0);
  });

  it('weighs precision twice as much as recall in F0.5', () => {
    expect(fBeta(1, 0.5, 0.5)).toBeGreaterThan(fBeta(0.5, 1, 0.5));
    expect(fBeta(0.8, 0.8, 0.5)).toBeCloseTo(0.8, 12);
    expect(fBeta(0, 0, 0.5)).toBe(0);
  });

  it('chooses the threshold of best F0.5, and with one project left out scores each on its own fold', () => {
    expect(bestThreshold(observations, atThreshold).threshold).toBe(0.71);
    const { folds, pooled } = leaveOneProjectOut(observations, atThreshold);
    expect(folds.map((fold) => fold.heldOut)).toEqual(['a', 'b']);
    // Trained on b alone (nothing labelled), the best is to keep nothing: 0.71; a then keeps a1.
    expect(folds[0]).toMatchObject({ threshold: 0.71, score: { kept: 1, relevantKept: 1 } });
    // Trained on a alone, 0.61 keeps a1 only; b1 (0.7) then passes where nothing should.
    expect(folds[1]).toMatchObject({ threshold: 0.61, score: { kept: 1, silentOnForeign: 0 } });
    expect(pooled).toMatchObject({ kept: 2, relevantKept: 1 });
    expect(pooled.relevantTotal).toBe(2);
  });
});
