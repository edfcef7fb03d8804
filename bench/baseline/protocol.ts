/**
 * What the search benchmark (in the bench process) and the SQLite baseline (a Node 22+ child
 * process, for `node:sqlite`) exchange. Bulk data goes through files in a work
 * directory; commands and results are JSON lines on the child's stdin and stdout.
 */

export const VECTOR_DIMENSIONS = 384;

/** Files in the work directory, written by the bench before the child loads them. */
export const EXCHANGE_FILES = {
  /** One memory (`BaselineMemory`) per line: the corpus, in index order, for the largest size. */
  corpus: 'corpus.jsonl',
  /** Float32 little-endian, VECTOR_DIMENSIONS per memory, same order as corpus.jsonl. */
  corpusVectors: 'corpus.f32',
  /** Memories for the store/insert throughput phase, and their vectors. */
  extra: 'extra.jsonl',
  extraVectors: 'extra.f32',
  /** One query text per line, JSON-encoded. */
  queries: 'queries.jsonl',
  /**
   * Float32, VECTOR_DIMENSIONS per query, same order as queries.jsonl: written only for a model
   * other than the built-in one, whose query vectors the synchronous child cannot compute. The
   * baseline then ranks with these, so its semantic and hybrid timings leave out computing the
   * query vector, which Cairn's include.
   */
  queryVectors: 'queries.f32',
} as const;

export interface BaselineMemory {
  readonly content: string;
  readonly category: string;
  readonly tags: string[];
  readonly keywords: string[];
  readonly importance: number;
  readonly confidence: number;
  /** ISO timestamp. */
  readonly createdAt: string;
}

export type BaselineMode = 'keyword' | 'semantic' | 'hybrid';

export type BaselineRequest =
  | { readonly id: number; readonly op: 'info' }
  /** Fresh database holding the first `size` corpus memories. */
  | { readonly id: number; readonly op: 'load'; readonly size: number }
  /** Runs the given queries (indices into queries.jsonl) one after another. */
  | {
      readonly id: number;
      readonly op: 'search';
      readonly mode: BaselineMode;
      readonly queries: readonly number[];
      readonly limit: number;
    }
  /** Inserts the given extra memories (indices into extra.jsonl), one transaction each. */
  | { readonly id: number; readonly op: 'insert'; readonly items: readonly number[] };

export interface BaselineInfo {
  readonly node: string;
  readonly sqlite: string;
}

export interface BaselineLoad {
  readonly rows: number;
  readonly ms: number;
  readonly databaseBytes: number;
  readonly journalMode: string;
  readonly synchronous: string;
}

export interface BaselineTimings {
  /** One latency per query or insert, in order. */
  readonly samplesMs: number[];
  /** Wall time of the whole batch. */
  readonly elapsedMs: number;
}

export interface BaselineSearch extends BaselineTimings {
  /** Corpus indices of the results of each query, best first. */
  readonly hits: number[][];
}

export type BaselineResponse =
  | ({ readonly id: number; readonly ok: true } & Record<string, unknown>)
  | { readonly id: number; readonly ok: false; readonly error: string };
