/**
 * Memory search and store against the single-user baseline (SQLite FTS5 + a linear Float32
 * cosine scan in a Node 22+ child process), on the same synthetic corpus and questions, for
 * each corpus size: seed both, search (keyword, semantic, hybrid; c=1 and c=8), diagnose the
 * slowest queries, then store. See bench/search/README.md.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BaselineLoad, EXCHANGE_FILES } from '../baseline/protocol';
import { waitForIdlePool } from '../lib/pool';
import { type ResultRow } from '../lib/report';
import { BaselineProcess } from './baseline-process';
import { type CorpusMemory, type CorpusQuery, corpusMemory, corpusQueries } from './corpus';
import { type Diagnosis, diagnose } from './diagnose';
import { type SearchMode } from '@cairn/search';
import { type SearchProvider } from '../lib/args';
import { createSearchTenant, dropSearchTenant, type SearchApp, startSearchApp } from './fixture';
import { cairnOperations } from './operations';
import { HIGH_CONCURRENCY, measureSearch, measureStore, STORE_CASES } from './phases';
import { searchRows, type SizeResult, sizeLabel } from './rows';
import { seedCairn, writeMemoryFiles, writeQueries } from './seed';
import { withFoldWorker } from './fold-worker';

export const QUERY_COUNT = 200;
export const STORES_PER_CASE = 60;
/** Store-phase memories come from far beyond any corpus index. */
export const EXTRA_OFFSET = 10_000_000;

export interface SearchBenchInput {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly root: string;
  readonly sizes: readonly number[];
  readonly provider: SearchProvider;
  readonly log: (line: string) => void;
  /** The concurrency measured beside c=1 (default HIGH_CONCURRENCY, 8). */
  readonly highConcurrency?: number;
  /** Goes before every row's benchmark name (the scale benchmark's local-model subset). */
  readonly group?: string;
  /** The search modes measured (default all three). */
  readonly modes?: readonly SearchMode[];
}

export interface SearchBenchResult {
  readonly rows: ResultRow[];
  readonly notes: string[];
  readonly data: unknown;
}

interface Shared {
  readonly bench: SearchApp;
  readonly baseline: BaselineProcess | null;
  readonly corpus: readonly CorpusMemory[];
  readonly extra: readonly CorpusMemory[];
  readonly queries: readonly CorpusQuery[];
  readonly runStart: Date;
  readonly provider: SearchProvider;
  readonly highConcurrency: number;
  readonly modes?: readonly SearchMode[];
  readonly log: (line: string) => void;
}

type Measured = SizeResult & {
  readonly diagnosis: Diagnosis;
  readonly baselineLoad: BaselineLoad | null;
  readonly seconds: number;
};

async function measureSize(shared: Shared, size: number): Promise<Measured> {
  const { bench, baseline, queries, log } = shared;
  const began = performance.now();
  const label = `${sizeLabel(size)}${shared.provider === 'hash' ? '' : `-${shared.provider}`}`;
  log(`search ${label}: seeding ${size} memories (1-min load average ${loadavg()[0]?.toFixed(2)})`);
  const target = await createSearchTenant(bench, label);
  try {
    const ids = Array.from({ length: size }, () => randomUUID());
    const seed = await seedCairn(bench, target, shared.corpus.slice(0, size), ids, shared.runStart, log);
    const baselineLoad = baseline ? await baseline.load(size) : null;
    if (baselineLoad) log(`  SQLite baseline loaded ${baselineLoad.rows} memories in ${seconds(baselineLoad.ms)} s`);

    const texts = queries.map((query) => query.text);
    const ops = cairnOperations(bench, target, texts, shared.extra, new Map(ids.map((id, index) => [id, index])));
    const settle = () => waitForIdlePool(bench.dataSource);
    const targets = queries.map((query) => query.target);
    const { highConcurrency } = shared;
    const modes = await measureSearch(ops, baseline, queries.length, targets, settle, log, {
      highConcurrency,
      modes: shared.modes,
    });
    const diagnosis = await diagnose(bench, target, ops, modes, texts, ids, log);
    log(`  store: ${STORES_PER_CASE} memories per case`);
    const store = await withFoldWorker(bench, target.tenant, log, () =>
      measureStore(ops, baseline, STORES_PER_CASE, settle, highConcurrency),
    );
    const took = seconds(performance.now() - began);
    log(`search ${label}: done in ${took} s`);
    return {
      size,
      provider: shared.provider,
      seed,
      baselineLoad,
      baselineLoadSeconds: baselineLoad ? baselineLoad.ms / 1000 : null,
      modes,
      store,
      diagnosis,
      seconds: Number(took),
    };
  } finally {
    await dropSearchTenant(bench, target);
  }
}

export async function benchSearch(input: SearchBenchInput): Promise<SearchBenchResult> {
  const { log } = input;
  const sizes = [...input.sizes].sort((a, b) => a - b);
  const runStart = new Date();
  const largest = sizes[sizes.length - 1] ?? 0;
  const queries = corpusQueries(QUERY_COUNT, sizes[0] ?? 1);
  const corpus = Array.from({ length: largest }, (_, i) => corpusMemory(i));
  const extra = Array.from({ length: STORES_PER_CASE * STORE_CASES }, (_, i) => corpusMemory(EXTRA_OFFSET + i));

  const bench = await startSearchApp(input.databaseUrl, input.redisUrl, input.provider);
  const workDir = mkdtempSync(join(tmpdir(), 'cairn-bench-search-'));
  // The exchange files run to hundreds of MB: gone even if a signal ends the run midway.
  const removeWorkDir = () => rmSync(workDir, { recursive: true, force: true });
  process.once('exit', removeWorkDir);
  let baseline: BaselineProcess | null = null;
  try {
    const begin = performance.now();
    const { corpus: corpusFile, corpusVectors, extra: extraFile, extraVectors } = EXCHANGE_FILES;
    await writeMemoryFiles(workDir, { jsonl: corpusFile, vectors: corpusVectors }, corpus, bench.embedder, runStart);
    await writeMemoryFiles(workDir, { jsonl: extraFile, vectors: extraVectors }, extra, bench.embedder, runStart);
    await writeQueries(
      workDir,
      queries.map((query) => query.text),
      bench.embedder,
    );
    log(`corpus of ${largest} memories, ${QUERY_COUNT} questions written in ${seconds(performance.now() - begin)} s`);

    const started = await BaselineProcess.start(input.root, workDir, log);
    const missing = 'process' in started ? null : started.reason;
    if ('process' in started) {
      baseline = started.process;
      log(`SQLite baseline: Node ${started.info.node}, SQLite ${started.info.sqlite} (${started.process.nodeBinary})`);
    } else {
      log(`SQLite baseline SKIPPED: ${started.reason}; its columns say n/a`);
    }

    const highConcurrency = input.highConcurrency ?? HIGH_CONCURRENCY;
    const shared: Shared = {
      bench,
      baseline,
      corpus,
      extra,
      queries,
      runStart,
      provider: input.provider,
      highConcurrency,
      modes: input.modes,
      log,
    };
    const results: Measured[] = [];
    for (const size of sizes) results.push(await measureSize(shared, size));

    const settings = await bench.dataSource.query<{ name: string; setting: string }[]>(
      `SELECT name, current_setting(name) AS setting FROM pg_settings WHERE name IN
         ('shared_buffers', 'work_mem', 'fsync', 'synchronous_commit', 'max_parallel_workers_per_gather', 'jit')`,
    );
    const [vector] = await bench.dataSource.query<{ v: string }[]>(
      `SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'`,
    );
    const loads = results.flatMap((result) => result.modes.flatMap((mode) => [...mode.loadAverage]));
    const notes = [
      `search: ${QUERY_COUNT} questions (45% natural, 30% keyword-y, 25% paraphrased), each with a known answer; ` +
        `limit 10, no filters; 20 warm-up queries per case; Cairn and the baseline alternate in chunks of ` +
        `25 (c=1) / 50 (c=${highConcurrency}) queries; the baseline is one synchronous process (as in the seeds): its ` +
        `c=${highConcurrency} figures are its sequential ones, measured beside the c=${highConcurrency} cases`,
      `search timings: ${results.map((r) => `${sizeLabel(r.size)} ${r.seconds.toFixed(0)} s`).join(', ')} ` +
        `(seeding included); 1-min load average during searches ${Math.min(...loads).toFixed(1)}–` +
        `${Math.max(...loads).toFixed(1)} on ${bench.config.database.poolMax}-connection app pool`,
      `PostgreSQL ${settings.map((s) => `${s.name}=${s.setting}`).join(' ')}; pgvector ${vector?.v ?? '?'}; ` +
        `embeddings: ${bench.embedder.model.id} (${bench.embedder.model.dimensions} dims) on both sides` +
        (bench.embedder.model.builtIn
          ? ' (the built-in hash embedder)'
          : ', query vectors computed per search by Cairn, computed before the run for the baseline'),
      missing
        ? `SQLite baseline: n/a (${missing})`
        : `SQLite baseline: Node 22+ child process, node:sqlite, WAL, synchronous=OFF, 128 MiB page cache, FTS5 ` +
          `porter tokenizer, column weights 1/0.7/0.5/0.3, stop words dropped; vectors in one Float32Array`,
    ];
    const data = { queries: QUERY_COUNT, storesPerCase: STORES_PER_CASE, settings, baselineMissing: missing, results };
    const group = input.group ?? '';
    return { rows: results.flatMap((result) => searchRows(result, missing, { group })), notes, data };
  } finally {
    await baseline?.close();
    await bench.close();
    removeWorkDir();
    process.removeListener('exit', removeWorkDir);
  }
}

function seconds(ms: number): string {
  return (ms / 1000).toFixed(1);
}
