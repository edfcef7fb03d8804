import { boostsFor, fuse } from './fusion';
import { type Candidate } from './contract/search.types';

const now = new Date('2026-06-01T00:00:00Z');
const day = (days: number) => new Date(now.getTime() - days * 86_400_000);
const candidate = (id: string, score: number, signals: Partial<Candidate['signals']> = {}): Candidate => ({
  id,
  score,
  signals: { createdAt: day(100), ...signals },
});

describe('fuse', () => {
  it('ranks by relevance and explains every signal', () => {
    const ranked = fuse(
      {
        keyword: [candidate('a', 8), candidate('b', 2)],
        semantic: [candidate('b', 0.9), candidate('c', 0.5)],
      },
      { k: 60, now },
    );
    expect(ranked.map((hit) => hit.id)).toEqual(['b', 'a', 'c']);
    expect(ranked[0].explain.keyword).toMatchObject({ rank: 2, score: 2, relative: 0.25 });
    expect(ranked[0].explain.semantic).toMatchObject({ rank: 1, relative: 1 });
    expect(ranked[2].explain.keyword).toBeUndefined();
  });

  it('never lets boosts lift a vague keyword hit over a precise one', () => {
    const ranked = fuse(
      {
        keyword: [
          candidate('precise', 10, { importance: 1, confidence: 0, createdAt: day(3650) }),
          candidate('vague', 3, { importance: 5, confidence: 1, pinned: true, createdAt: now }),
        ],
      },
      { k: 60, now },
    );
    expect(ranked.map((hit) => hit.id)).toEqual(['precise', 'vague']);
  });

  it('lets importance break ties', () => {
    const ranked = fuse(
      { keyword: [candidate('low', 5, { importance: 2 }), candidate('high', 5, { importance: 5 })] },
      { k: 60, now },
    );
    expect(ranked.map((hit) => hit.id)).toEqual(['high', 'low']);
    expect(ranked[0].explain.keyword!.rank).toBe(1);
    expect(ranked[1].explain.keyword!.rank).toBe(1);
  });

  it('returns nothing for nothing', () => {
    expect(fuse({}, { k: 60, now })).toEqual([]);
    expect(fuse({ keyword: [], semantic: [] }, { k: 60, now })).toEqual([]);
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
