import { type EmbeddingModel } from '@cairn/embeddings';
import { isCalibrated, KEYWORD_CALIBRATION, relevanceCalibration, relevanceOf } from './relevance';

const model = (id: string): EmbeddingModel => ({ id, provider: 'ollama', dimensions: 384, builtIn: false });
const LOCAL = relevanceCalibration(model('local-all-minilm-l6-v2-384'));
const HASH = relevanceCalibration(model('cairn-hash-v1'));

describe('calibrated relevance', () => {
  it('is the term coverage when no vector takes part', () => {
    expect(relevanceOf({ coverage: 0.4, cosine: null }, LOCAL)).toBeCloseTo(0.4, 12);
    expect(relevanceOf({ coverage: 0.4, cosine: 0.9 }, KEYWORD_CALIBRATION)).toBeCloseTo(0.4, 12);
  });

  it('adds the cosine as independent evidence, so either signal alone can pass the threshold', () => {
    const wordsOnly = relevanceOf({ coverage: 0.5, cosine: 0 }, LOCAL);
    const meaningOnly = relevanceOf({ coverage: 0, cosine: 0.7 }, LOCAL);
    const both = relevanceOf({ coverage: 0.5, cosine: 0.7 }, LOCAL);
    expect(wordsOnly).toBeGreaterThanOrEqual(LOCAL.threshold);
    expect(meaningOnly).toBeGreaterThanOrEqual(LOCAL.threshold);
    expect(both).toBeGreaterThan(Math.max(wordsOnly, meaningOnly));
    expect(both).toBeLessThanOrEqual(1);
    // An unrelated pair under the local model: a stray common word and a cosine of 0.2.
    expect(relevanceOf({ coverage: 0.15, cosine: 0.2 }, LOCAL)).toBeLessThan(LOCAL.threshold);
  });

  it('rises with each signal and stays within 0-1 whatever the inputs', () => {
    let previous = -1;
    for (const cosine of [-0.5, 0, 0.2, 0.4, 0.6, 0.8, 1, 3]) {
      const value = relevanceOf({ coverage: 0.2, cosine }, LOCAL);
      expect(value).toBeGreaterThanOrEqual(previous);
      expect(value).toBeGreaterThanOrEqual(0);
      expect(value).toBeLessThanOrEqual(1);
      previous = value;
    }
    expect(relevanceOf({ coverage: 7, cosine: 2 }, LOCAL)).toBe(1);
    expect(relevanceOf({ coverage: -1, cosine: -1 }, LOCAL)).toBe(0);
    expect(relevanceOf({ coverage: Number.NaN, cosine: null }, LOCAL)).toBe(0);
  });

  it("ignores the hash embedder's cosine: its vectors are word overlap, which coverage already counts", () => {
    expect(HASH).toMatchObject({ basis: 'cairn-hash-v1', cosineWeight: 0 });
    expect(relevanceOf({ coverage: 0.2, cosine: 0.9 }, HASH)).toBeCloseTo(0.2, 12);
  });

  it('falls back to term coverage for a model it has no calibration for, and says so by its basis', () => {
    const unknown = model('nomic-embed-text');
    expect(isCalibrated(unknown)).toBe(false);
    expect(relevanceCalibration(unknown)).toEqual(KEYWORD_CALIBRATION);
    expect(relevanceCalibration(undefined)).toEqual(KEYWORD_CALIBRATION);
    expect(isCalibrated(model('local-all-minilm-l6-v2-384'))).toBe(true);
  });
});
