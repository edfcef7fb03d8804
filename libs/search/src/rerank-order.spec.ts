import { type Explanation } from './contract/search.types';
import { rerankOrder } from './rerank-order';

const explain: Explanation = {
  fused: 1,
  boosts: { importance: 1, recency: 1, confidence: 1, pinned: 1 },
  final: 1,
};
const hits = (...ids: string[]) => ids.map((id) => ({ id, score: 1, explain }));
const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

describe('rerankOrder', () => {
  it("puts the head in the reranker's order and keeps the rest after it, in fused order", () => {
    const ranked = rerankOrder(hits('a', 'b', 'c', 'd', 'e'), 3, [
      { id: 'a', score: 0.1 },
      { id: 'c', score: 0.9 },
      { id: 'b', score: 0.5 },
    ]);
    expect(ids(ranked)).toEqual(['c', 'b', 'a', 'd', 'e']);
    expect(ranked.map((hit) => hit.explain.rerank)).toEqual([
      { score: 0.9, rank: 1, fusedRank: 3 },
      { score: 0.5, rank: 2, fusedRank: 2 },
      { score: 0.1, rank: 3, fusedRank: 1 },
      undefined,
      undefined,
    ]);
    // The rest of each result is untouched.
    expect(ranked[0]).toMatchObject({ id: 'c', score: 1, explain: { fused: 1, final: 1 } });
  });

  it('keeps ties, then unscored candidates of the head, in fused order', () => {
    const ranked = rerankOrder(hits('a', 'b', 'c', 'd'), 4, [
      { id: 'd', score: -2 },
      { id: 'b', score: 3 },
      { id: 'a', score: 3 },
    ]);
    expect(ids(ranked)).toEqual(['a', 'b', 'd', 'c']);
    expect(ranked[3]?.explain.rerank).toBeUndefined();
  });

  it('ignores scores of ids outside the head, repeated ids (the first counts) and non-finite scores', () => {
    const ranked = rerankOrder(hits('a', 'b', 'c'), 2, [
      { id: 'c', score: 99 },
      { id: 'zz', score: 50 },
      { id: 'b', score: 0.2 },
      { id: 'b', score: 10 },
      { id: 'a', score: Number.NaN },
    ]);
    expect(ids(ranked)).toEqual(['b', 'a', 'c']);
    expect(ranked[0]?.explain.rerank).toEqual({ score: 0.2, rank: 1, fusedRank: 2 });
  });
});
