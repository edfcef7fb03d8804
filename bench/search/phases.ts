/**
 * The measured phases of one corpus size: searches per mode at concurrency 1 and a higher one
 * (8 by default; the scale benchmark uses 16), and stores.
 * Cairn and the baseline take turns chunk by chunk (see measure.ts). The baseline is one
 * synchronous process, as in the seeds: it runs its queries one at a time whatever the
 * concurrency of the Cairn case it alternates with.
 */
import { loadavg } from 'node:os';
import { type SearchMode } from '@cairn/search';
import { type BaselineProcess } from './baseline-process';
import {
  chunked,
  closedLoop,
  type ChunkRunner,
  interleave,
  type Measured,
  measured,
  overlap,
  quality,
} from './measure';
import { type CairnOperations, LIMIT } from './operations';

export const MODES: readonly SearchMode[] = ['keyword', 'semantic', 'hybrid'];
/** The search benchmark's higher concurrency. */
export const HIGH_CONCURRENCY = 8;
const SEARCH_CHUNK = 25;
const STORE_CHUNK = 20;
const WARMUP_QUERIES = 20;

export interface ModeResult {
  readonly mode: SearchMode;
  /** The concurrency of the `high` cases. */
  readonly highConcurrency: number;
  /** In-process MemoryRecall.recall. */
  readonly recall: AtConcurrency;
  /** HybridSearch.rank alone: no project lookup, no access recording. */
  readonly rankOnly: AtConcurrency;
  /** POST /v1/projects/:p/memories/search over app.inject; hybrid only. */
  readonly http?: AtConcurrency;
  /** Sequential baseline, pooled over the turns it took beside the c=1 and the high-concurrency cases. */
  readonly baseline: AtConcurrency | null;
  readonly quality: {
    readonly cairn: QualityFigure;
    readonly baseline: QualityFigure | null;
    /** Mean share of the baseline's top 10 that Cairn's top 10 also holds (c=1 recall). */
    readonly overlapWithBaseline: number | null;
  };
  /** 1-minute load average when the mode started and ended. */
  readonly loadAverage: readonly [number, number];
  /** Query index and latency of the slowest c=1 in-process recalls, for EXPLAIN. */
  readonly slowest: { readonly query: number; readonly ms: number }[];
}

/** One case at concurrency 1 and at the higher concurrency. */
export interface AtConcurrency {
  readonly c1: Measured;
  readonly high: Measured;
}

export interface QualityFigure {
  readonly hitAt10: number;
  readonly mrr: number;
}

export interface StoreResult {
  readonly highConcurrency: number;
  readonly c1: Measured;
  readonly high: Measured;
  readonly httpC1: Measured;
  readonly httpHigh: Measured;
  readonly baseline: Measured | null;
}

export async function measureSearch(
  ops: CairnOperations,
  baseline: BaselineProcess | null,
  queryCount: number,
  targets: readonly number[],
  settle: () => Promise<void>,
  log: (line: string) => void,
  options: { readonly highConcurrency?: number; readonly modes?: readonly SearchMode[] } = {},
): Promise<ModeResult[]> {
  const { highConcurrency = HIGH_CONCURRENCY, modes = MODES } = options;
  const all = Array.from({ length: queryCount }, (_, i) => i);
  const results: ModeResult[] = [];
  for (const mode of modes) {
    const warm = all.slice(0, WARMUP_QUERIES);
    await closedLoop(warm, 1, ops.recall(mode));
    await closedLoop(warm, 1, ops.rankOnly(mode));
    if (mode === 'hybrid') await closedLoop(warm, 1, ops.httpRecall(mode));
    if (baseline) await baseline.search(mode, warm, LIMIT);

    const viaBaseline: ChunkRunner = (chunk) => (baseline as BaselineProcess).search(mode, chunk, LIMIT);
    const at = (concurrency: number, op: (query: number) => Promise<number[]>): ChunkRunner => {
      return (chunk) => closedLoop(chunk, concurrency, op);
    };
    const c1Cases: Record<string, ChunkRunner> = {
      recall: at(1, ops.recall(mode)),
      rankOnly: at(1, ops.rankOnly(mode)),
      ...(mode === 'hybrid' ? { http: at(1, ops.httpRecall(mode)) } : {}),
      ...(baseline ? { baseline: viaBaseline } : {}),
    };
    const highCases: Record<string, ChunkRunner> = {
      recall: at(highConcurrency, ops.recall(mode)),
      rankOnly: at(highConcurrency, ops.rankOnly(mode)),
      ...(mode === 'hybrid' ? { http: at(highConcurrency, ops.httpRecall(mode)) } : {}),
      ...(baseline ? { baseline: viaBaseline } : {}),
    };
    const began = performance.now();
    const loadAtStart = loadavg()[0] ?? Number.NaN;
    const c1 = await interleave(c1Cases, chunked(all, SEARCH_CHUNK), settle);
    const high = await interleave(highCases, chunked(all, SEARCH_CHUNK * 2), settle);
    log(`  ${mode}: measured in ${((performance.now() - began) / 1000).toFixed(1)} s`);

    const recallC1 = c1.recall;
    // At c=1 the chunks run in list order, so a sample's position is its query's index.
    const slowest = recallC1.samplesMs
      .map((ms, query) => ({ ms, query }))
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 10);
    results.push({
      mode,
      highConcurrency,
      recall: { c1: measured(recallC1), high: measured(high.recall) },
      rankOnly: { c1: measured(c1.rankOnly), high: measured(high.rankOnly) },
      http: c1.http && high.http ? { c1: measured(c1.http), high: measured(high.http) } : undefined,
      baseline: c1.baseline && high.baseline ? { c1: measured(c1.baseline), high: measured(high.baseline) } : null,
      quality: {
        cairn: quality(recallC1.hits ?? [], targets),
        baseline: c1.baseline ? quality(c1.baseline.hits ?? [], targets) : null,
        overlapWithBaseline: c1.baseline ? overlap(recallC1.hits ?? [], c1.baseline.hits ?? []) : null,
      },
      loadAverage: [loadAtStart, loadavg()[0] ?? Number.NaN],
      slowest,
    });
  }
  return results;
}

/**
 * Stores `perCase` memories per Cairn case (distinct memories per case) and inserts the c=1
 * case's memories into the baseline, chunk by chunk in turn.
 */
export async function measureStore(
  ops: CairnOperations,
  baseline: BaselineProcess | null,
  perCase: number,
  settle: () => Promise<void>,
  highConcurrency = HIGH_CONCURRENCY,
): Promise<StoreResult> {
  const items = Array.from({ length: perCase }, (_, i) => i);
  const shifted = (offset: number, concurrency: number, op: (item: number) => Promise<void>): ChunkRunner => {
    return (chunk) =>
      closedLoop(
        chunk.map((item) => item + offset),
        concurrency,
        op,
      );
  };
  const cases: Record<string, ChunkRunner> = {
    c1: shifted(0, 1, ops.store),
    high: shifted(perCase, highConcurrency, ops.store),
    httpC1: shifted(perCase * 2, 1, ops.httpStore),
    httpHigh: shifted(perCase * 3, highConcurrency, ops.httpStore),
    ...(baseline ? { baseline: (chunk: readonly number[]) => baseline.insert(chunk) } : {}),
  };
  const series = await interleave(cases, chunked(items, STORE_CHUNK), settle);
  const get = (name: string) => measured(series[name]);
  return {
    highConcurrency,
    c1: get('c1'),
    high: get('high'),
    httpC1: get('httpC1'),
    httpHigh: get('httpHigh'),
    baseline: series.baseline ? get('baseline') : null,
  };
}

/** Memories the store phase needs for `perCase` items per case. */
export const STORE_CASES = 4;
