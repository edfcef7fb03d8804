/**
 * The SQLite baseline as a child process of the search benchmark:
 *   node --experimental-sqlite dist/bench/baseline/sqlite-baseline.js <work directory>   (Node 22+)
 * Reads one JSON request per line on stdin, answers one JSON line each on stdout (see
 * protocol.ts). Everything is synchronous, as in the single-user seeds: one query at a time.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { createInterface } from 'node:readline';
import {
  type BaselineMemory,
  type BaselineRequest,
  type BaselineResponse,
  EXCHANGE_FILES,
  VECTOR_DIMENSIONS,
} from './protocol';
import { SqliteBaseline } from './sqlite-index';

/** Extra (store phase) memories get ids far above any corpus id. */
const EXTRA_ID_BASE = 100_000_000;

const workDir = process.argv[2];
if (!workDir) {
  process.stderr.write('usage: sqlite-baseline <work directory>\n');
  process.exit(2);
}

function readLines(file: string): string[] {
  return readFileSync(join(workDir, file), 'utf8').split('\n').filter(Boolean);
}

function readVectors(file: string): Float32Array {
  const bytes = readFileSync(join(workDir, file));
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
}

let extra: BaselineMemory[] | undefined;
let extraVectors: Float32Array | undefined;
let queries: string[] | undefined;
/** The model's query vectors when the bench wrote them (protocol.ts); null: the baseline hashes the question. */
let queryVectors: Float32Array | null | undefined;
let baseline: SqliteBaseline | undefined;
let databasePath: string | undefined;

const vectorAt = (all: Float32Array, index: number) =>
  all.subarray(index * VECTOR_DIMENSIONS, (index + 1) * VECTOR_DIMENSIONS);

function removeDatabase(): void {
  baseline?.close();
  baseline = undefined;
  if (databasePath) for (const suffix of ['', '-wal', '-shm']) rmSync(`${databasePath}${suffix}`, { force: true });
}

/**
 * The lines of a JSONL file and the matching Float32 vectors, `batch` records at a time, read
 * in chunks: a million memories' files (GBs) never sit in memory at once, only the vectors
 * the linear scan keeps.
 */
function* corpusBatches(size: number, batch: number): Generator<{ lines: string[]; vectors: Float32Array }> {
  const text = openSync(join(workDir, EXCHANGE_FILES.corpus), 'r');
  const binary = openSync(join(workDir, EXCHANGE_FILES.corpusVectors), 'r');
  const chunk = Buffer.alloc(1 << 20);
  // A chunk may end inside a multi-byte character: the decoder keeps its first bytes for the next one.
  const decoder = new StringDecoder('utf8');
  let pending = '';
  let at = 0;
  let read = 0;
  try {
    while (read < size) {
      const count = Math.min(batch, size - read);
      const lines: string[] = [];
      while (lines.length < count) {
        const newline = pending.indexOf('\n', at);
        if (newline >= 0) {
          lines.push(pending.slice(at, newline));
          at = newline + 1;
          continue;
        }
        const bytes = readSync(text, chunk, 0, chunk.length, null);
        if (bytes === 0) throw new Error(`corpus has ${read + lines.length} memories, ${size} asked for`);
        pending = pending.slice(at) + decoder.write(chunk.subarray(0, bytes));
        at = 0;
      }
      const vectors = new Float32Array(count * VECTOR_DIMENSIONS);
      const want = vectors.byteLength;
      const got = readSync(binary, new Uint8Array(vectors.buffer), 0, want, null);
      if (got !== want) throw new Error(`corpus vectors end after ${read} memories, ${size} asked for`);
      read += count;
      yield { lines, vectors };
    }
  } finally {
    closeSync(text);
    closeSync(binary);
  }
}

function load(size: number): Record<string, unknown> {
  removeDatabase();
  databasePath = join(workDir, `baseline-${size}.sqlite`);
  const started = performance.now();
  const db = new SqliteBaseline(databasePath, size);
  baseline = db;
  let id = 1;
  for (const { lines, vectors } of corpusBatches(size, 1_000)) {
    db.batch(() => {
      lines.forEach((line, i) => db.insert(id++, JSON.parse(line) as BaselineMemory, vectorAt(vectors, i), false));
    });
  }
  const ms = performance.now() - started;
  return {
    rows: db.count,
    ms,
    databaseBytes: existsSync(databasePath) ? statSync(databasePath).size : 0,
    journalMode: db.pragma('journal_mode'),
    synchronous: db.pragma('synchronous'),
  };
}

function search(mode: 'keyword' | 'semantic' | 'hybrid', indices: readonly number[], limit: number) {
  const db = baseline;
  if (!db) throw new Error('load first');
  queries ??= readLines(EXCHANGE_FILES.queries).map((line) => JSON.parse(line) as string);
  const texts = queries;
  if (queryVectors === undefined) {
    queryVectors = existsSync(join(workDir, EXCHANGE_FILES.queryVectors))
      ? readVectors(EXCHANGE_FILES.queryVectors)
      : null;
  }
  const vectors = queryVectors;
  const samplesMs: number[] = [];
  const hits: number[][] = [];
  const started = performance.now();
  for (const index of indices) {
    const begin = performance.now();
    const ids = db.search(texts[index] ?? '', mode, limit, vectors ? vectorAt(vectors, index) : undefined);
    samplesMs.push(performance.now() - begin);
    hits.push(ids.map((id) => id - 1));
  }
  return { samplesMs, elapsedMs: performance.now() - started, hits };
}

function insert(items: readonly number[]) {
  const db = baseline;
  if (!db) throw new Error('load first');
  extra ??= readLines(EXCHANGE_FILES.extra).map((line) => JSON.parse(line) as BaselineMemory);
  extraVectors ??= readVectors(EXCHANGE_FILES.extraVectors);
  const memories = extra;
  const vectors = extraVectors;
  const samplesMs: number[] = [];
  const started = performance.now();
  for (const item of items) {
    const memory = memories[item];
    if (!memory) throw new Error(`no extra memory ${item}`);
    const begin = performance.now();
    db.insert(EXTRA_ID_BASE + item, memory, vectorAt(vectors, item));
    samplesMs.push(performance.now() - begin);
  }
  return { samplesMs, elapsedMs: performance.now() - started };
}

function handle(request: BaselineRequest): Record<string, unknown> {
  switch (request.op) {
    case 'info': {
      const probe = new SqliteBaseline(':memory:');
      const info = { node: process.version, sqlite: probe.version() };
      probe.close();
      return info;
    }
    case 'load':
      return load(request.size);
    case 'search':
      return search(request.mode, request.queries, request.limit);
    case 'insert':
      return insert(request.items);
  }
}

const lines = createInterface({ input: process.stdin });
lines.on('line', (line) => {
  let id = -1;
  let response: BaselineResponse;
  try {
    const request = JSON.parse(line) as BaselineRequest;
    id = request.id;
    response = { id, ok: true, ...handle(request) };
  } catch (error) {
    response = { id, ok: false, error: error instanceof Error ? (error.stack ?? error.message) : String(error) };
  }
  process.stdout.write(`${JSON.stringify(response)}\n`);
});
lines.on('close', () => {
  removeDatabase();
});
