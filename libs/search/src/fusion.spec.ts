import { boostsFor, fuse } from './fusion';
import { type Candidate } from './contract/search.types';

const now = new Date('2026-06-01T00:00:00Z');
const day = (days: number) => new Date(now.getTime() - days * 86_400_000);
const candidate = (id: string, score: number, signals: Partial<Candidate['signals']> = {}): Candidate => ({
  id,
  score,
  signals: { createdAt: day(100), ...signals },
});

const SCORE = { kind: 'score', keywordWeight: 0.5 } as const;
const RRF = { kind: 'rrf', k: 60, keywordWeight: 0.5 } as const;

describe('fuse', () => {
  it('ranks by normalised score and explains every signal', () => {
    const ranked = fuse(
      {
        keyword: [candidate('a', 8), candidate('b', 2)],
        semantic: [candidate('b', 0.9), candidate('c', 0.5)],
      },
      { method: SCORE, now },
    );
    // a: 0.5 * 8/8 = 0.5; b: 0.5 * 2/8 + 0.5 * 1 = 0.625; c: 0.5 * 0 (the list's worst) = 0.
    expect(ranked.map((hit) => hit.id)).toEqual(['b', 'a', 'c']);
    expect(ranked[0].explain.keyword).toMatchObject({ rank: 2, score: 2, relative: 0.25, contribution: 0.125 });
    expect(ranked[0].explain.semantic).toMatchObject({ rank: 1, relative: 1, contribution: 0.5 });
    expect(ranked[0].explain.fused).toBeCloseTo(0.625, 10);
    expect(ranked[2].explain.keyword).toBeUndefined();
  });

  it('keeps a clear keyword winner on top where rank fusion lets an average candidate of both lists pass it', () => {
    const lists = {
      keyword: [candidate('exact', 20), candidate('both', 4), candidate('k3', 3.9)],
      semantic: [candidate('s1', 0.62), candidate('both', 0.55), candidate('s3', 0.5)],
    };
    expect(fuse(lists, { method: SCORE, now })[0].id).toBe('exact');
    expect(fuse(lists, { method: RRF, now })[0].id).toBe('both');
  });

  it('weighs the rankers by keywordWeight', () => {
    const lists = {
      keyword: [candidate('k', 5), candidate('s', 1)],
      semantic: [candidate('s', 0.9), candidate('k', 0.2)],
    };
    expect(fuse(lists, { method: { kind: 'score', keywordWeight: 0.8 }, now })[0].id).toBe('k');
    expect(fuse(lists, { method: { kind: 'score', keywordWeight: 0.2 }, now })[0].id).toBe('s');
  });

  it('never lets boosts lift a vague keyword hit over a precise one', () => {
    const ranked = fuse(
      {
        keyword: [
          candidate('precise', 10, { importance: 1, confidence: 0, createdAt: day(3650) }),
          candidate('vague', 3, { importance: 5, confidence: 1, pinned: true, createdAt: now }),
        ],
      },
      { method: SCORE, now },
    );
    expect(ranked.map((hit) => hit.id)).toEqual(['precise', 'vague']);
  });

  it('lets importance break ties', () => {
    for (const method of [SCORE, RRF]) {
      const ranked = fuse(
        { keyword: [candidate('low', 5, { importance: 2 }), candidate('high', 5, { importance: 5 })] },
        { method, now },
      );
      expect(ranked.map((hit) => hit.id)).toEqual(['high', 'low']);
      expect(ranked[0].explain.keyword!.rank).toBe(1);
      expect(ranked[1].explain.keyword!.rank).toBe(1);
    }
  });

  it('returns nothing for nothing', () => {
    expect(fuse({}, { method: SCORE, now })).toEqual([]);
    expect(fuse({ keyword: [], semantic: [] }, { method: RRF, now })).toEqual([]);
  });
});

describe('boostsFor', () => {
  it('stays within about ten percent either way', () => {
    const max = boostsFor({ importance: 5, confidence: 1, pinned: true, createdAt: now }, now);
    const min = boostsFor({ importance: 1, confidence: 0, createdAt: day(10_000) }, now);
    const product = (b: typeof max) => b.importance * b.recency * b.confidence * b.pinned;
    expect(product(max)).toBeLessThan(1.11);
    expect(product(min)).toBeGreaterThan(0.92);
    expect(product(boostsFor({ createdAt: day(10_000) }, now))).toBeCloseTo(1, 3);
  });
});
