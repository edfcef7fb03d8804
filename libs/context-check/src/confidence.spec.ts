import { confidenceOf, levelOf } from './confidence';
import { coverageOf, termsOf } from './evidence-terms';

describe('evidence terms', () => {
  it('splits identifiers, drops stop words and short words, and stems by prefix', () => {
    expect([...termsOf('How is the parseFile indexing done?')]).toEqual(['parse', 'file', 'index', 'done']);
  });

  it('measures the share of the question found in the evidence', () => {
    const question = termsOf('where are uploads batched');
    expect(coverageOf(question, termsOf('batches of uploads, split by size'))).toBe(1);
    expect(coverageOf(question, termsOf('nothing relevant'))).toBe(0);
    expect(coverageOf(new Set(), termsOf('anything'))).toBe(0);
  });
});

describe('confidence', () => {
  it('grows with coverage, agreement and margin, and stays a probability', () => {
    const none = confidenceOf({ coverage: 0, agreement: 0, symbol: 0, margin: 0 });
    const covered = confidenceOf({ coverage: 1, agreement: 0, symbol: 0, margin: 0 });
    const all = confidenceOf({ coverage: 1, agreement: 1, symbol: 1, margin: 0.5 });
    expect(none).toBeGreaterThan(0);
    expect(covered).toBeGreaterThan(none);
    expect(all).toBeGreaterThan(covered);
    expect(all).toBeLessThan(1);
    expect(levelOf(none)).toBe('low');
  });
});
