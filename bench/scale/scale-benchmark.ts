/**
 * `--only scale` (issue 27, part 1): one tenant of `--scale-memories` memories (1M by default),
 * seeded through the bulk SQL path batch by batch with the HNSW index dropped, embedded with the
 * hash embedder by the worker's EmbeddingProcessor, the index built once (timed, beside the same
 * build at a tenth of the size), then the search benchmark's phases against the SQLite baseline
 * (recall per mode at c=1 and --scale-concurrency, EXPLAIN, store), the term-statistics fold and
 * VACUUM/ANALYZE; last, the local model over the first `--scale-model-subset` memories (the
 * search benchmark at that size). See bench/scale/README.md.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_MODELS_DIR } from '@cairn/config';
import { LOCAL_MODEL, LocalModelUnavailableError, verifyModelFiles } from '@cairn/embeddings';
import { EXCHANGE_FILES } from '../baseline/protocol';
import { waitForIdlePool } from '../lib/pool';
import { type ResultRow } from '../lib/report';
import { BaselineProcess } from '../search/baseline-process';
import { corpusMemory, corpusQueries } from '../search/corpus';
import { diagnose } from '../search/diagnose';
import { createSearchTenant, dropSearchTenant, type SearchApp, startSearchApp } from '../search/fixture';
import { cairnOperations } from '../search/operations';
import { measureSearch, measureStore, STORE_CASES } from '../search/phases';
import { sizeLabel } from '../search/rows';
import { benchSearch, EXTRA_OFFSET, QUERY_COUNT, STORES_PER_CASE } from '../search/search-benchmark';
import { seedCairn, writeMemoryFiles, writeQueries } from '../search/seed';
import { SCALE_CORPUS_INDEX, scaleIds, scaleMemories } from './scale-corpus';
import { scaleNotes, scaleRows, type ScaleResult } from './scale-rows';
import { analyze, autovacuumSettings, tableActivity, termTables, timedFold, vacuumAnalyze } from './upkeep';
import {
  buildMemoryVectorIndex,
  buildSampleVectorIndex,
  dropMemoryVectorIndex,
  memoryTableSizes,
} from './vector-index';
import { withFoldWorker } from '../search/fold-worker';

export interface ScaleBenchInput {
  readonly databaseUrl: string;
  readonly redisUrl: string;
  readonly root: string;
  /** Memories in the tenant (the full size: 1,000,000). */
  readonly memories: number;
  /** Memories of the local model's run (0: skipped). */
  readonly modelSubset: number;
  /** The concurrency measured beside c=1. */
  readonly highConcurrency: number;
  readonly log: (line: string) => void;
}

export interface ScaleBenchResult {
  readonly rows: ResultRow[];
  readonly notes: string[];
  readonly data: unknown;
}

/** The longest the configuration allows (DATABASE_STATEMENT_TIMEOUT_MS). */
const STATEMENT_TIMEOUT_MS = 3_600_000;

const seconds = (from: number) => (performance.now() - from) / 1000;

/** The hash-embedder tenant of `input.memories` memories: seeded, measured, dropped. */
async function measureTenant(input: ScaleBenchInput, bench: SearchApp, workDir: string): Promise<ScaleResult> {
  const { memories: size, highConcurrency, log } = input;
  const runStart = new Date();
  const label = sizeLabel(size);
  const queries = corpusQueries(QUERY_COUNT, size);
  const texts = queries.map((query) => query.text);
  const extra = Array.from({ length: STORES_PER_CASE * STORE_CASES }, (_, i) => corpusMemory(EXTRA_OFFSET + i));

  let begin = performance.now();
  const files = EXCHANGE_FILES;
  await writeMemoryFiles(
    workDir,
    { jsonl: files.corpus, vectors: files.corpusVectors },
    scaleMemories(size),
    bench.embedder,
    runStart,
  );
  await writeMemoryFiles(workDir, { jsonl: files.extra, vectors: files.extraVectors }, extra, bench.embedder, runStart);
  await writeQueries(workDir, texts, bench.embedder);
  const corpusFileSeconds = seconds(begin);
  log(`scale ${label}: baseline files of ${size} memories written in ${corpusFileSeconds.toFixed(1)} s`);

  const started = await BaselineProcess.start(input.root, workDir, log);
  const baseline = 'process' in started ? started.process : null;
  const missing = 'process' in started ? null : started.reason;
  if (missing) log(`SQLite baseline SKIPPED: ${missing}; its columns say n/a`);
  const target = await createSearchTenant(bench, `scale-${label}`);
  try {
    const { schema } = target.tenant;
    const model = bench.embedder.model.id;
    const definition = await dropMemoryVectorIndex(bench.dataSource, schema, model);
    log(`scale ${label}: seeding with the HNSW index dropped (1-min load average ${loadavg()[0]?.toFixed(2)})`);
    const seed = await seedCairn(bench, target, scaleMemories(size), scaleIds(size), runStart, log);
    const termsAfterLoad = await termTables(bench, schema);

    const hnsw = await buildMemoryVectorIndex(bench.dataSource, input.databaseUrl, schema, model, definition, size);
    log(
      `  built ${definition} in ${hnsw.seconds.toFixed(1)} s (maintenance_work_mem ${hnsw.maintenanceWorkMem}, ` +
        `max_parallel_maintenance_workers ${hnsw.parallelMaintenanceWorkers})`,
    );
    for (const notice of hnsw.notices) log(`  PostgreSQL: ${notice}`);
    const sampleRows = Math.max(1, Math.floor(size / 10));
    const sample = await buildSampleVectorIndex(bench.dataSource, input.databaseUrl, schema, definition, sampleRows);
    log(`  the same build over ${sampleRows} vectors: ${sample.seconds.toFixed(1)} s`);
    const analyzeAfterBuildSeconds = await analyze(bench, schema);
    const sizes = await memoryTableSizes(bench.dataSource, schema);

    begin = performance.now();
    const baselineLoad = baseline ? await baseline.load(size) : null;
    if (baselineLoad) log(`  SQLite baseline loaded ${baselineLoad.rows} memories in ${seconds(begin).toFixed(1)} s`);

    const ops = cairnOperations(bench, target, texts, extra, SCALE_CORPUS_INDEX);
    const settle = () => waitForIdlePool(bench.dataSource);
    const targets = queries.map((query) => query.target);
    const loadBefore = loadavg()[0] ?? Number.NaN;
    const modes = await measureSearch(ops, baseline, queries.length, targets, settle, log, { highConcurrency });
    const diagnosis = await diagnose(bench, target, ops, modes, texts, scaleIds(size), log);
    // Whole, for docs/retrieval.md: the plans of the ranking statements at this size.
    for (const explained of diagnosis.explained) {
      log(`  EXPLAIN (ANALYZE, BUFFERS) of the ${explained.ranker} ranker at ${label} ("${explained.query}"):`);
      for (const line of explained.plan) log(`    | ${line}`);
    }
    log(`  store: ${STORES_PER_CASE} memories per case`);
    const store = await withFoldWorker(bench, target.tenant, log, () =>
      measureStore(ops, baseline, STORES_PER_CASE, settle, highConcurrency),
    );
    const loadAfter = loadavg()[0] ?? Number.NaN;

    const afterStores = await tableActivity(bench, schema);
    const storeFold = await timedFold(bench, target.tenant);
    log(`  term-statistics fold after the stores: ${storeFold.deltas} deltas in ${storeFold.seconds.toFixed(2)} s`);
    const vacuumSeconds = await vacuumAnalyze(bench, schema);
    const analyzeSeconds = await analyze(bench, schema);
    const afterVacuum = await tableActivity(bench, schema);
    log(`  VACUUM (ANALYZE) ${vacuumSeconds.toFixed(1)} s, ANALYZE ${analyzeSeconds.toFixed(1)} s after the stores`);
    return {
      size,
      provider: 'hash',
      seed,
      baselineLoad,
      baselineLoadSeconds: baselineLoad ? baselineLoad.ms / 1000 : null,
      baselineMissing: missing,
      modes,
      store,
      diagnosis,
      corpusFileSeconds,
      indexDefinition: definition,
      hnsw,
      sample,
      sizes,
      analyzeAfterBuildSeconds,
      upkeep: {
        termsAfterLoad,
        storeFold,
        afterStores,
        vacuumSeconds,
        analyzeSeconds,
        afterVacuum,
        autovacuum: await autovacuumSettings(bench, schema),
      },
      loadAverage: [loadBefore, loadAfter],
    };
  } finally {
    await dropSearchTenant(bench, target);
    await baseline?.close();
  }
}

/** The local model's part: the search benchmark over the first `modelSubset` memories, or why not. */
async function measureModelSubset(input: ScaleBenchInput): Promise<ScaleBenchResult> {
  const { modelSubset, log } = input;
  if (modelSubset === 0)
    return { rows: [], notes: ['scale: local model part skipped (--scale-model-subset 0)'], data: null };
  try {
    await verifyModelFiles(join(input.root, DEFAULT_MODELS_DIR, LOCAL_MODEL.folder));
  } catch (error) {
    if (!(error instanceof LocalModelUnavailableError)) throw error;
    const reason = `scale: local model part SKIPPED (${error.message})`;
    log(reason);
    return { rows: [], notes: [reason], data: { skipped: error.message } };
  }
  const result = await benchSearch({
    databaseUrl: input.databaseUrl,
    redisUrl: input.redisUrl,
    root: input.root,
    sizes: [modelSubset],
    provider: 'local',
    highConcurrency: input.highConcurrency,
    modes: ['semantic', 'hybrid'],
    group: 'scale ',
    log,
  });
  return { ...result, notes: result.notes.map((note) => `scale, local model ${sizeLabel(modelSubset)}: ${note}`) };
}

export async function benchScale(input: ScaleBenchInput): Promise<ScaleBenchResult> {
  const began = performance.now();
  // VACUUM, the embedded-rows count and the term tables' counts at a million rows run past the
  // pool's default 30 s statement timeout; no measured statement comes near it either way.
  const bench = await startSearchApp(input.databaseUrl, input.redisUrl, 'hash', {
    DATABASE_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS),
  });
  const workDir = mkdtempSync(join(tmpdir(), 'cairn-bench-scale-'));
  // At a million memories the exchange files take GBs: gone even if a signal ends the run midway.
  const removeWorkDir = () => rmSync(workDir, { recursive: true, force: true });
  process.once('exit', removeWorkDir);
  let result: ScaleResult;
  try {
    result = await measureTenant(input, bench, workDir);
  } finally {
    await bench.close();
    removeWorkDir();
    process.removeListener('exit', removeWorkDir);
  }
  const tenantSeconds = seconds(began);
  // The bench process's peak resident memory: it stays bounded because the corpus is generated per batch.
  const maxRssMiB = process.resourceUsage().maxRSS / 1024;
  const model = await measureModelSubset(input);
  return {
    rows: [...scaleRows(result), ...model.rows],
    notes: [...scaleNotes(result, tenantSeconds, maxRssMiB), ...model.notes],
    data: { tenantSeconds, maxRssMiB, tenant: result, localModel: model.data },
  };
}
