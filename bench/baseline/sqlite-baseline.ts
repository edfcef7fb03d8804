/**
 * The SQLite baseline as a child process of the search benchmark:
 *   node --experimental-sqlite dist/bench/baseline/sqlite-baseline.js <work directory>   (Node 22+)
 * Reads one JSON request per line on stdin, answers one JSON line each on stdout (see
 * protocol.ts). Everything is synchronous, as in the single-user seeds: one query at a time.
 */
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
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

let corpus: string[] | undefined;
let corpusVectors: Float32Array | undefined;
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

function load(size: number): Record<string, unknown> {
  corpus ??= readLines(EXCHANGE_FILES.corpus);
  corpusVectors ??= readVectors(EXCHANGE_FILES.corpusVectors);
  if (size > corpus.length) throw new Error(`corpus has ${corpus.length} memories, ${size} asked for`);
  removeDatabase();
  databasePath = join(workDir, `baseline-${size}.sqlite`);
  const started = performance.now();
  const db = new SqliteBaseline(databasePath);
  baseline = db;
  const lines = corpus;
  const vectors = corpusVectors;
  for (let start = 0; start < size; start += 1_000) {
    db.batch(() => {
      for (let i = start; i < Math.min(size, start + 1_000); i++) {
        db.insert(i + 1, JSON.parse(lines[i]) as BaselineMemory, vectorAt(vectors, i), false);
      }
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
