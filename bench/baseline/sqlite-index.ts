/**
 * The single-user baseline, built the way the seeds build it: memories in a SQLite table with an
 * external-content FTS5 index kept by a trigger (BM25 ranking, column weights like Cairn's), the
 * vectors as Float32 BLOBs beside them and, in memory, one Float32Array scanned linearly for
 * cosine similarity; hybrid is plain reciprocal rank fusion (k = 60) of the two lists.
 * Runs only under Node 22+ (`node:sqlite`).
 */
import { createRequire } from 'node:module';
import { contentWords, HashEmbedder } from '@cairn/embeddings';
import { type BaselineMemory, type BaselineMode, VECTOR_DIMENSIONS } from './protocol';

type SqlValue = null | number | bigint | string | Uint8Array;
interface StatementSync {
  run(...params: SqlValue[]): unknown;
  all(...params: SqlValue[]): Record<string, unknown>[];
  get(...params: SqlValue[]): Record<string, unknown> | undefined;
}
interface DatabaseSync {
  exec(sql: string): void;
  prepare(sql: string): StatementSync;
  close(): void;
}
interface SqliteModule {
  DatabaseSync: new (path: string) => DatabaseSync;
}

const RRF_K = 60;
/** Candidates per list before fusion, as Cairn's rankers use for limit 10 (max(50, 4 × limit)). */
const PER_LIST = 50;
/** FTS5 column weights in column order content, keywords, tags, category: Cairn's A/B/C/D weights. */
const BM25 = 'bm25(memories_fts, 1.0, 0.7, 0.5, 0.3)';

const SCHEMA = `
  PRAGMA journal_mode = WAL;
  PRAGMA synchronous = OFF;
  PRAGMA cache_size = -131072;
  CREATE TABLE memories (
    id INTEGER PRIMARY KEY, content TEXT NOT NULL, category TEXT NOT NULL, tags TEXT NOT NULL,
    keywords TEXT NOT NULL, importance INTEGER NOT NULL, confidence REAL NOT NULL, created_at TEXT NOT NULL
  );
  CREATE VIRTUAL TABLE memories_fts USING fts5(
    content, keywords, tags, category, content = 'memories', content_rowid = 'id', tokenize = 'porter unicode61'
  );
  CREATE TRIGGER memories_ai AFTER INSERT ON memories BEGIN
    INSERT INTO memories_fts (rowid, content, keywords, tags, category)
    VALUES (new.id, new.content, new.keywords, new.tags, new.category);
  END;
  CREATE TABLE embeddings (memory_id INTEGER PRIMARY KEY, model TEXT NOT NULL, vector BLOB NOT NULL);`;

/** Vectors in one growable Float32Array with their norms; a full scan per query. */
class LinearVectors {
  private data: Float32Array;
  private norms: Float32Array;
  private ids: Int32Array;
  count = 0;

  /** Room for `capacity` vectors up front: doubling a GB-sized array would hold both copies at once. */
  constructor(capacity: number) {
    const rows = Math.max(1024, capacity);
    this.data = new Float32Array(rows * VECTOR_DIMENSIONS);
    this.norms = new Float32Array(rows);
    this.ids = new Int32Array(rows);
  }

  append(id: number, vector: Float32Array): void {
    if (this.count === this.ids.length) {
      const grow = <T extends Float32Array | Int32Array>(old: T, make: (n: number) => T): T => {
        const next = make(old.length * 2);
        next.set(old);
        return next;
      };
      this.data = grow(this.data, (n) => new Float32Array(n));
      this.norms = grow(this.norms, (n) => new Float32Array(n));
      this.ids = grow(this.ids, (n) => new Int32Array(n));
    }
    this.data.set(vector, this.count * VECTOR_DIMENSIONS);
    let norm = 0;
    for (let i = 0; i < VECTOR_DIMENSIONS; i++) norm += (vector[i] ?? 0) * (vector[i] ?? 0);
    this.norms[this.count] = Math.sqrt(norm);
    this.ids[this.count] = id;
    this.count += 1;
  }

  /** Ids of the `k` most cosine-similar vectors, best first. */
  nearest(query: Float32Array, k: number): number[] {
    let queryNorm = 0;
    for (let i = 0; i < VECTOR_DIMENSIONS; i++) queryNorm += (query[i] ?? 0) * (query[i] ?? 0);
    queryNorm = Math.sqrt(queryNorm) || 1;
    const bestScores: number[] = [];
    const bestIds: number[] = [];
    const { data, norms, ids } = this;
    for (let row = 0; row < this.count; row++) {
      const offset = row * VECTOR_DIMENSIONS;
      let dot = 0;
      for (let i = 0; i < VECTOR_DIMENSIONS; i++) dot += query[i] * data[offset + i];
      const score = dot / (queryNorm * (norms[row] || 1));
      if (bestScores.length === k && score <= bestScores[k - 1]) continue;
      let at = bestScores.length;
      while (at > 0 && bestScores[at - 1] < score) at -= 1;
      bestScores.splice(at, 0, score);
      bestIds.splice(at, 0, ids[row]);
      if (bestScores.length > k) {
        bestScores.pop();
        bestIds.pop();
      }
    }
    return bestIds;
  }
}

/** A natural-language question as FTS5 syntax that cannot break: an OR of quoted terms. */
export function ftsQuery(text: string): string | null {
  const terms = [...new Set(contentWords(text))].slice(0, 32);
  return terms.length === 0 ? null : terms.map((term) => `"${term.replace(/"/g, '""')}"`).join(' OR ');
}

export class SqliteBaseline {
  private readonly db: DatabaseSync;
  private readonly vectors: LinearVectors;
  private readonly embedder = new HashEmbedder();
  private readonly insertMemory: StatementSync;
  private readonly insertVector: StatementSync;
  private readonly keywordSearch: StatementSync;
  private readonly fetchRows: StatementSync;

  /** `capacity`: how many memories the caller expects to load (the vector array grows past it). */
  constructor(path: string, capacity = 0) {
    this.vectors = new LinearVectors(capacity);
    const sqlite = createRequire(__filename)('node:sqlite') as SqliteModule;
    this.db = new sqlite.DatabaseSync(path);
    this.db.exec(SCHEMA);
    this.insertMemory = this.db.prepare(
      `INSERT INTO memories (id, content, category, tags, keywords, importance, confidence, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertVector = this.db.prepare(`INSERT INTO embeddings (memory_id, model, vector) VALUES (?, ?, ?)`);
    this.keywordSearch = this.db.prepare(
      `SELECT rowid AS id FROM memories_fts WHERE memories_fts MATCH ? ORDER BY ${BM25} LIMIT ?`,
    );
    this.fetchRows = this.db.prepare(
      `SELECT id, content, category, tags, keywords, importance, confidence, created_at FROM memories
       WHERE id IN (SELECT value FROM json_each(?))`,
    );
  }

  pragma(name: string): string {
    return scalar(Object.values(this.db.prepare(`PRAGMA ${name}`).get() ?? {})[0]);
  }

  version(): string {
    return scalar(this.db.prepare('SELECT sqlite_version() AS v').get()?.v);
  }

  get count(): number {
    return this.vectors.count;
  }

  /** Memory and vector rows plus the in-memory vector; `transaction` false when the caller batches. */
  insert(id: number, memory: BaselineMemory, vector: Float32Array, transaction = true): void {
    if (transaction) this.db.exec('BEGIN');
    this.insertMemory.run(
      id,
      memory.content,
      memory.category,
      JSON.stringify(memory.tags),
      JSON.stringify(memory.keywords),
      memory.importance,
      memory.confidence,
      memory.createdAt,
    );
    this.insertVector.run(id, 'cairn-hash-v1', new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength));
    if (transaction) this.db.exec('COMMIT');
    this.vectors.append(id, vector);
  }

  batch(work: () => void): void {
    this.db.exec('BEGIN');
    work();
    this.db.exec('COMMIT');
  }

  /** Ranked ids, then the rows themselves (as the seeds return them), in rank order. */
  search(query: string, mode: BaselineMode, limit: number, queryVector?: Float32Array): number[] {
    let ids: number[];
    if (mode === 'keyword') ids = this.keyword(query, limit);
    else if (mode === 'semantic') ids = this.semantic(query, limit, queryVector);
    else ids = fuse([this.keyword(query, PER_LIST), this.semantic(query, PER_LIST, queryVector)]).slice(0, limit);
    if (ids.length === 0) return [];
    const rows = new Map(
      this.fetchRows
        .all(JSON.stringify(ids))
        .map((row) => [Number(row.id), { ...row, tags: JSON.parse(String(row.tags)) as unknown }]),
    );
    return ids.filter((id) => rows.has(id));
  }

  private keyword(query: string, limit: number): number[] {
    const match = ftsQuery(query);
    if (match === null) return [];
    return this.keywordSearch.all(match, limit).map((row) => Number(row.id));
  }

  /** With the model's query vector when given (another model than the built-in one), else the hash of the question. */
  private semantic(query: string, limit: number, queryVector?: Float32Array): number[] {
    return this.vectors.nearest(queryVector ?? this.embedder.embedOne(query), limit);
  }

  close(): void {
    this.db.close();
  }
}

function scalar(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? String(value) : '';
}

/** Plain reciprocal rank fusion: the sum of 1 / (k + rank) over the lists an id is in. */
function fuse(lists: readonly number[][]): number[] {
  const scores = new Map<number, number>();
  for (const list of lists) {
    list.forEach((id, index) => scores.set(id, (scores.get(id) ?? 0) + 1 / (RRF_K + index + 1)));
  }
  return [...scores.entries()].sort((a, b) => b[1] - a[1] || a[0] - b[0]).map(([id]) => id);
}
