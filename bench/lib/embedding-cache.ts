import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type Embedder } from '@cairn/embeddings';

const HASH_BYTES = 32;

/** Where benchmarks and evaluations keep real models' vectors between runs (git-ignored). */
export const EMBEDDING_CACHE_DIR = join('.cairn', 'embedding-cache');

/**
 * Remembers a model's vectors across benchmark and evaluation runs, in `<dir>/<model id>.bin` (SHA-256 of the
 * text, then the vector as float32, one record after another; appended, never rewritten). The
 * local model takes minutes of CPU for a corpus of 10k-100k texts; a second run with the same
 * model and texts then costs only what is measured. The vectors are the model's own, so figures are unchanged.
 */
export class CachedEmbedder implements Embedder {
  private readonly vectors = new Map<string, Float32Array>();
  private readonly file: string;

  constructor(
    private readonly inner: Embedder,
    dir: string,
  ) {
    mkdirSync(dir, { recursive: true });
    this.file = join(dir, `${inner.model.id}.bin`);
    const dims = inner.model.dimensions;
    const record = HASH_BYTES + dims * 4;
    if (!existsSync(this.file)) return;
    const data = readFileSync(this.file);
    for (let offset = 0; offset + record <= data.length; offset += record) {
      const key = data.subarray(offset, offset + HASH_BYTES).toString('hex');
      const copy = new Uint8Array(data.subarray(offset + HASH_BYTES, offset + record));
      this.vectors.set(key, new Float32Array(copy.buffer));
    }
  }

  get model() {
    return this.inner.model;
  }

  get size(): number {
    return this.vectors.size;
  }

  async embed(texts: readonly string[]): Promise<Float32Array[]> {
    const keys = texts.map((text) => createHash('sha256').update(text).digest());
    const missing = [...new Set(keys.map((key, i) => (this.vectors.has(key.toString('hex')) ? -1 : i)))].filter(
      (i) => i >= 0,
    );
    if (missing.length > 0) {
      const computed = await this.inner.embed(missing.map((i) => texts[i] ?? ''));
      const records: Buffer[] = [];
      missing.forEach((textIndex, j) => {
        const vector = computed[j];
        const key = keys[textIndex];
        if (!vector || !key) return;
        this.vectors.set(key.toString('hex'), vector);
        records.push(key, Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
      });
      appendFileSync(this.file, Buffer.concat(records));
    }
    return keys.map((key) => {
      const vector = this.vectors.get(key.toString('hex'));
      if (!vector) throw new Error('embedding cache: a vector went missing');
      return vector;
    });
  }
}
