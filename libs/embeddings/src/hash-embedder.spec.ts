import { HashEmbedder } from './hash-embedder';

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);

describe('HashEmbedder', () => {
  const embedder = new HashEmbedder();

  it('is deterministic and unit length', async () => {
    const [a, b] = await embedder.embed([
      'The deploy pipeline uses GitHub Actions',
      'The deploy pipeline uses GitHub Actions',
    ]);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(a).toHaveLength(384);
    expect(cosine(a, a)).toBeCloseTo(1, 5);
  });

  it('puts texts about the same thing closer than unrelated ones', () => {
    const query = embedder.embedOne('how do we deploy the service?');
    const related = embedder.embedOne('Deploying the service happens through the CI pipeline on merge');
    const unrelated = embedder.embedOne('Alice prefers dark roast coffee in the morning');
    expect(cosine(query, related)).toBeGreaterThan(cosine(query, unrelated) + 0.1);
  });

  it('gives empty, stopword-only and unicode texts a valid finite direction', () => {
    for (const text of ['', 'the of and', '🦀🦀', 'ｆｕｌｌｗｉｄｔｈ', '\u0000\u0007']) {
      const vector = embedder.embedOne(text);
      expect(vector.every(Number.isFinite)).toBe(true);
      expect(cosine(vector, vector)).toBeCloseTo(1, 5);
    }
    expect(cosine(embedder.embedOne('ｐｏｓｔｇｒｅｓ'), embedder.embedOne('postgres'))).toBeCloseTo(1, 5);
  });
});
