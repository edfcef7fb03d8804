import { MAX_INJECTED, RELATIVE_CUTOFF, selectForInjection } from './recall-selection';

describe('which recalled memories are injected', () => {
  it('keeps those close to the best one, in order, at most MAX_INJECTED', () => {
    const hits = [0.9, 0.8, 0.5, 0.85].map((relevance, i) => ({ id: `m${i}`, relevance }));
    expect(selectForInjection(hits).map((hit) => hit.id)).toEqual(['m0', 'm1', 'm3']);
    expect(0.5).toBeLessThan(RELATIVE_CUTOFF * 0.9);
    const many = Array.from({ length: 9 }, (_, i) => ({ id: `m${i}`, relevance: 0.8 }));
    expect(selectForInjection(many)).toHaveLength(MAX_INJECTED);
    expect(selectForInjection([])).toEqual([]);
  });
});
