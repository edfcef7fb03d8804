/** Identity of the model that made a vector; vectors of different models are never compared. */
export interface EmbeddingModel {
  /** Stored with every vector and used in partial index predicates: `^[a-z0-9][a-z0-9._:-]*$`. */
  readonly id: string;
  readonly provider: 'hash' | 'local' | 'ollama' | 'openai';
  readonly dimensions: number;
  /** True for the deterministic built-in embedder: lexical, not semantic; reported as such. */
  readonly builtIn: boolean;
  /**
   * The keyword ranker's share in hybrid score fusion, where it was measured for this model
   * (docs/retrieval.md); search uses its own default for a model without one.
   */
  readonly keywordWeight?: number;
}

export interface Embedder {
  readonly model: EmbeddingModel;
  /** One unit-length vector per text, in order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  /**
   * A search query's unit-length vector, for models that embed queries differently from stored
   * texts (an instruction before the query); without it, a query is embedded like any text.
   */
  embedQuery?(query: string): Promise<Float32Array>;
}

export const EMBEDDER = Symbol('EMBEDDER');

const MODEL_ID = /^[a-z0-9][a-z0-9._:-]{0,99}$/;

/** Model ids end up as SQL literals in index predicates; refuse anything unexpected. */
export function assertSafeModelId(id: string): string {
  if (!MODEL_ID.test(id)) throw new Error(`unsafe embedding model id: ${JSON.stringify(id)}`);
  return id;
}

/** pgvector's text form, e.g. `[0.1,0.2]`; rejects non-finite components. */
export function toVectorLiteral(vector: ArrayLike<number>): string {
  const parts: string[] = new Array<string>(vector.length);
  for (let i = 0; i < vector.length; i += 1) {
    const value = vector[i] ?? Number.NaN;
    if (!Number.isFinite(value)) throw new Error('vector has a non-finite component');
    parts[i] = String(value);
  }
  return `[${parts.join(',')}]`;
}
