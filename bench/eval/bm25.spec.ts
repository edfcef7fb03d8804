import { Bm25Index, tokenize } from './bm25';

describe('tokenize', () => {
  it('lowercases, splits on non-alphanumerics, drops English stop words and stems (Porter2)', () => {
    expect(tokenize("Don't STOP believing: the skies, dying ponies & 3D-printers!")).toEqual([
      'stop',
      'believ',
      'sky',
      'die',
      'poni',
      '3d',
      'printer',
    ]);
  });
});

/*
 * Scores worked by hand. After tokenising, the corpus is
 *   d1 "The cat sat on the mat"      → cat sat mat               |d1| = 3
 *   d2 "Cats chase the mice"         → cat chase mice            |d2| = 3
 *   d3 "Dogs chase cats, cats run"   → dog chase cat cat run     |d3| = 5
 * N = 3, avgdl = 11/3; df: cat 3, chase 2, mat 1, dog 1.
 * IDF(t) = ln(1 + (N − df + 0.5)/(df + 0.5)): cat ln(8/7), chase ln(1.6), mat = dog = ln(8/3).
 * Length norm K(D) = k1·(1 − b + b·|D|/avgdl) = 1.2·(0.25 + 0.75·|D|·3/11):
 *   K(3-token doc) = 1.2·(0.25 + 27/44) = 1.0363636…, K(d3) = 1.2·(0.25 + 45/44) = 1.5272727…
 * term(t, D) = IDF(t) · tf·2.2 / (tf + K(D)).
 */
describe('Bm25Index', () => {
  const index = new Bm25Index([
    { key: 'd1', text: 'The cat sat on the mat' },
    { key: 'd2', text: 'Cats chase the mice' },
    { key: 'd3', text: 'Dogs chase cats, cats run' },
  ]);
  const K3 = 1.2 * (0.25 + 27 / 44);
  const K5 = 1.2 * (0.25 + 45 / 44);
  const scores = (query: string) => Object.fromEntries(index.search(query, 10).map((hit) => [hit.key, hit.score]));

  it('counts documents, average length and the textbook IDF', () => {
    expect(index.size).toBe(3);
    expect(index.averageLength).toBeCloseTo(11 / 3, 12);
    expect(index.idf('cat')).toBeCloseTo(Math.log(8 / 7), 12);
    expect(index.idf('cat')).toBeCloseTo(0.133531, 6);
    expect(index.idf('chase')).toBeCloseTo(0.470004, 6);
    expect(index.idf('mat')).toBeCloseTo(0.980829, 6);
  });

  it('scores "Is the cat chasing?" as worked out above, stop words ignored and "chasing" stemmed', () => {
    const cat = Math.log(8 / 7);
    const chase = Math.log(1.6);
    const expected = {
      d1: (cat * 2.2) / (1 + K3),
      d2: (cat * 2.2) / (1 + K3) + (chase * 2.2) / (1 + K3),
      // tf(cat, d3) = 2: the saturating numerator, not double the single-occurrence score.
      d3: (cat * 2 * 2.2) / (2 + K5) + (chase * 2.2) / (1 + K5),
    };
    const got = scores('Is the cat chasing?');
    expect(Object.keys(got)).toEqual(['d2', 'd3', 'd1']);
    for (const key of ['d1', 'd2', 'd3'] as const) expect(got[key]).toBeCloseTo(expected[key], 10);
    // The same figures as decimals, from an independent calculation.
    expect(got.d1).toBeCloseTo(0.144262, 6);
    expect(got.d2).toBeCloseTo(0.652033, 6);
    expect(got.d3).toBeCloseTo(0.57571, 5);
  });

  it('counts a repeated query token twice and leaves out documents that share no token', () => {
    const dog = Math.log(8 / 3);
    expect(index.search('dog dog', 10)).toEqual([{ key: 'd3', score: expect.any(Number) }]);
    expect(scores('dog dog').d3).toBeCloseTo((2 * dog * 2.2) / (1 + K5), 10);
    expect(scores('dog dog').d3).toBeCloseTo(1.707631, 6);
    expect(index.search('the and of', 10)).toEqual([]);
  });

  it('keeps corpus order between equal scores and honours the limit', () => {
    const twins = new Bm25Index([
      { key: 'b', text: 'red apple' },
      { key: 'a', text: 'red apple' },
      { key: 'c', text: 'green pear' },
    ]);
    expect(twins.search('apple', 10).map((hit) => hit.key)).toEqual(['b', 'a']);
    expect(twins.search('apple', 1).map((hit) => hit.key)).toEqual(['b']);
  });

  it('takes k1 and b', () => {
    // b = 0: no length normalisation, so the term score is IDF · tf·(k1+1)/(tf+k1) whatever |D| is.
    const flat = new Bm25Index(
      [
        { key: 'x', text: 'cat' },
        { key: 'y', text: 'cat dog dog dog' },
      ],
      { k1: 2, b: 0 },
    );
    const idf = Math.log(1 + 0.5 / 2.5);
    expect(flat.search('cat', 10)).toEqual([
      { key: 'x', score: expect.closeTo((idf * 3) / 3, 12) },
      { key: 'y', score: expect.closeTo((idf * 3) / 3, 12) },
    ]);
  });
});
