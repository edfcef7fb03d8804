import { type Embedder, type EmbeddingModel } from './embedding-model';
import { STOPWORDS } from './stopwords';

export const HASH_MODEL: EmbeddingModel = {
  id: 'cairn-hash-v1',
  provider: 'hash',
  dimensions: 384,
  builtIn: true,
};

const WORD = /[\p{L}\p{N}]+/gu;

/** FNV-1a, 32-bit: fast, stable across platforms and releases, good enough spread for hashing features. */
function fnv1a(text: string, seed: number): number {
  let hash = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** Crude English suffix folding so `deploying`, `deployed` and `deploys` share a feature. */
function stem(word: string): string {
  if (word.length <= 4) return word;
  for (const suffix of ['ingly', 'edly', 'ing', 'ed', 'es', 's', 'ly']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) return word.slice(0, -suffix.length);
  }
  return word;
}

export function contentWords(text: string): string[] {
  const words = text.normalize('NFKC').toLowerCase().match(WORD) ?? [];
  const topical = words.filter((word) => !STOPWORDS.has(word));
  return topical.length > 0 ? topical : words;
}

/**
 * The built-in embedder: signed feature hashing of word stems (sublinear term frequency),
 * adjacent word pairs and character trigrams into 384 dimensions, L2-normalised.
 * Deterministic and dependency-free, so Cairn runs (and tests run) with no model at all.
 * It captures lexical overlap, not meaning: status and readiness say so.
 */
export class HashEmbedder implements Embedder {
  readonly model = HASH_MODEL;

  embed(texts: readonly string[]): Promise<Float32Array[]> {
    return Promise.resolve(texts.map((text) => this.embedOne(text)));
  }

  embedOne(text: string): Float32Array {
    const dims = this.model.dimensions;
    const vector = new Float32Array(dims);
    const counts = new Map<string, number>();
    const add = (feature: string, weight: number) => counts.set(feature, (counts.get(feature) ?? 0) + weight);
    const words = contentWords(text);
    words.forEach((word, index) => {
      const stemmed = stem(word);
      add(`w:${stemmed}`, 1);
      const next = words[index + 1];
      if (next !== undefined) add(`b:${stemmed} ${stem(next)}`, 0.5);
      const padded = `#${word}#`;
      if (padded.length > 4) {
        for (let i = 0; i + 3 <= padded.length; i += 1) add(`c:${padded.slice(i, i + 3)}`, 0.25);
      }
    });
    for (const [feature, weight] of counts) {
      const hash = fnv1a(feature, 0);
      const sign = fnv1a(feature, 0x9e3779b9) & 1 ? 1 : -1;
      vector[hash % dims] += sign * (1 + Math.log(weight));
    }
    return normalise(vector);
  }
}

function normalise(vector: Float32Array): Float32Array {
  let norm = 0;
  for (const value of vector) norm += value * value;
  if (norm === 0) {
    // A text with no words still needs a valid direction: cosine distance to zero is undefined.
    vector[0] = 1;
    return vector;
  }
  const scale = 1 / Math.sqrt(norm);
  for (let i = 0; i < vector.length; i += 1) vector[i] = (vector[i] ?? 0) * scale;
  return vector;
}
