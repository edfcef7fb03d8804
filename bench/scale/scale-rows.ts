/** The scale benchmark's lines of the results table, and the notes that say which goals held. */
import { type BaselineLoad } from '../baseline/protocol';
import { type ResultRow, row } from '../lib/report';
import { type Diagnosis } from '../search/diagnose';
import { searchRows, type SizeResult, sizeLabel } from '../search/rows';
import { type Fold, type TableActivity, type TermTables } from './upkeep';
import { type TableSizes, type VectorIndexBuild } from './vector-index';

/** The issue's full size; smaller runs say they were scaled down. */
export const FULL_SIZE = 1_000_000;
/** Issue 27's goals: hybrid recall p95 in-process, store p95 (MemoryWriter.store). */
export const RECALL_P95_GOAL_MS = 40;
export const STORE_P95_GOAL_MS = 20;

export type ScaleResult = SizeResult & {
  readonly baselineLoad: BaselineLoad | null;
  readonly baselineMissing: string | null;
  readonly diagnosis: Diagnosis;
  readonly corpusFileSeconds: number;
  readonly indexDefinition: string;
  readonly hnsw: VectorIndexBuild;
  /** The same build over a tenth of the vectors: the baseline of `hnsw`. */
  readonly sample: VectorIndexBuild;
  readonly sizes: TableSizes;
  readonly analyzeAfterBuildSeconds: number;
  readonly upkeep: {
    readonly termsAfterLoad: TermTables;
    readonly storeFold: Fold;
    readonly afterStores: TableActivity;
    readonly vacuumSeconds: number;
    readonly analyzeSeconds: number;
    readonly afterVacuum: TableActivity;
    readonly autovacuum: Record<string, string>;
  };
  /** 1-minute load average before the searches and after the stores. */
  readonly loadAverage: readonly [number, number];
};

const MIB = 1024 * 1024;
const count = (n: number) => n.toLocaleString('en-US');

export function scaleRows(result: ScaleResult): ResultRow[] {
  const n = sizeLabel(result.size);
  const { hnsw, sample, sizes, upkeep, seed } = result;
  const tenth = { name: `the same build over ${count(sample.rows)} vectors`, value: sample.seconds };
  const sqlite = result.baselineLoad;
  const sqliteName = result.baselineMissing ? 'n/a: SQLite baseline skipped (see notes)' : 'SQLite load';
  const loadRate = sqlite && sqlite.ms > 0 ? sqlite.rows / (sqlite.ms / 1000) : null;
  const rows: ResultRow[] = [
    row(`scale index ${n}`, 'HNSW build (once, after the load)', 's', hnsw.seconds, tenth),
    row(`scale index ${n}`, 'HNSW index size', 'MiB', hnsw.bytes / MIB, { ...tenth, value: sample.bytes / MIB }),
    row(`scale index ${n}`, 'memories heap', 'MiB', sizes.heapBytes / MIB),
    row(`scale index ${n}`, 'GIN index on tsv', 'MiB', sizes.keywordIndexBytes / MIB),
    row(`scale index ${n}`, 'memories total (heap, indexes, TOAST)', 'MiB', sizes.totalBytes / MIB, {
      name: `${sqliteName} file (rows, FTS5, vector BLOBs)`,
      value: sqlite ? sqlite.databaseBytes / MIB : null,
    }),
  ];
  // searchRows ends with the seed rows: the load rate goes with them.
  rows.push(
    ...searchRows(result, result.baselineMissing, { group: 'scale ', indexedWhileEmbedding: false }),
    row(`scale seed ${n}`, 'bulk INSERT rate', 'memories/s', result.size / seed.insertSeconds, {
      name: `${sqliteName} (rows, FTS5, vectors)`,
      value: loadRate,
    }),
  );
  const fold = upkeep.storeFold;
  const deadShare = (activity: TableActivity) =>
    activity.liveTuples > 0 ? (activity.deadTuples / activity.liveTuples) * 100 : Number.NaN;
  rows.push(
    row(
      `scale upkeep ${n}`,
      `term-statistics fold after the stores (${count(fold.deltas)} deltas)`,
      's',
      fold.seconds,
      { name: 'the fold after the bulk load', value: seed.foldSeconds },
    ),
    row(`scale upkeep ${n}`, 'dead tuples after the stores, % of live', '%', deadShare(upkeep.afterStores)),
    row(`scale upkeep ${n}`, 'VACUUM (ANALYZE) after the stores', 's', upkeep.vacuumSeconds, {
      name: 'VACUUM (ANALYZE) after the bulk load',
      value: seed.vacuumAnalyzeSeconds,
    }),
    row(`scale upkeep ${n}`, 'ANALYZE after the stores', 's', upkeep.analyzeSeconds, {
      name: 'ANALYZE after the index build',
      value: result.analyzeAfterBuildSeconds,
    }),
  );
  return rows;
}

function goal(label: string, valueMs: number, goalMs: number): string {
  return `${label} ${valueMs.toFixed(1)} ms (${valueMs <= goalMs ? 'held' : 'NOT held'})`;
}

export function scaleNotes(result: ScaleResult, tenantSeconds: number, maxRssMiB: number): string[] {
  const n = sizeLabel(result.size);
  const hybrid = result.modes.find((mode) => mode.mode === 'hybrid');
  const high = result.store.highConcurrency;
  const { hnsw, upkeep } = result;
  const settings = Object.entries(upkeep.autovacuum)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ');
  const size =
    result.size >= FULL_SIZE
      ? `at full size (${count(result.size)} memories)`
      : `SCALED DOWN to ${count(result.size)} memories (--scale-memories; the issue's size is ${count(FULL_SIZE)})`;
  const notes = [
    `scale ${n}: one tenant ${size}, in ${tenantSeconds.toFixed(0)} s; 1-min load average ` +
      `${result.loadAverage[0].toFixed(1)} before the searches, ${result.loadAverage[1].toFixed(1)} after the stores; ` +
      `bench process peak RSS ${maxRssMiB.toFixed(0)} MiB (corpus generated per 1000-row batch)`,
    `scale ${n}: seeded with the bulk INSERT of the search benchmark (1000-row batches) and the worker's ` +
      `EmbeddingProcessor with the HNSW index dropped; then built once from the migration's own definition ` +
      `(${result.indexDefinition}), maintenance_work_mem=${hnsw.maintenanceWorkMem}, ` +
      `max_parallel_maintenance_workers=${hnsw.parallelMaintenanceWorkers}` +
      (hnsw.notices.length > 0 ? `; PostgreSQL said: ${hnsw.notices.join(' | ')}` : ''),
  ];
  if (hybrid) {
    notes.push(
      `scale ${n}: goal hybrid recall p95 <= ${RECALL_P95_GOAL_MS} ms in-process: ` +
        `${goal('c=1', hybrid.recall.c1.latencyMs.p95, RECALL_P95_GOAL_MS)}, ` +
        `${goal(`c=${high}`, hybrid.recall.high.latencyMs.p95, RECALL_P95_GOAL_MS)}`,
    );
  }
  notes.push(
    `scale ${n}: goal MemoryWriter.store p95 <= ${STORE_P95_GOAL_MS} ms: ` +
      `${goal('c=1', result.store.c1.latencyMs.p95, STORE_P95_GOAL_MS)}, ` +
      `${goal(`c=${high}`, result.store.high.latencyMs.p95, STORE_P95_GOAL_MS)}`,
    `scale ${n}: term statistics: the fold after the bulk load moved ${count(result.seed.foldedDeltas)} deltas into ` +
      `${count(upkeep.termsAfterLoad.termCounts)} term_counts rows (${count(upkeep.termsAfterLoad.termCountDeltas)} deltas left)`,
    `scale ${n}: after the stores ${count(upkeep.afterStores.deadTuples)} dead / ${count(upkeep.afterStores.liveTuples)} ` +
      `live tuples, ${upkeep.afterStores.autovacuumCount} autovacuum and ${upkeep.afterStores.autoanalyzeCount} ` +
      `autoanalyze runs so far; after VACUUM ${count(upkeep.afterVacuum.deadTuples)} dead; term_count_deltas ` +
      `${count(upkeep.storeFold.before.termCountDeltas)} before the fold, ${count(upkeep.storeFold.after.termCountDeltas)} ` +
      `after; term_counts ${count(upkeep.storeFold.after.termCounts)}`,
    `scale ${n}: autovacuum in effect: ${settings}`,
  );
  return notes;
}
