/**
 * Interleaved measurement over a fixed work list (queries or memories to store): the list is
 * cut into chunks and the cases take turns chunk by chunk, rotating who goes first, so drift
 * and background work (autovacuum, a busy neighbour) land on every case alike.
 */
import { type LatencySummary, summarize } from '../lib/stats';

export interface Series {
  /** One latency per item, in the order the items completed. */
  readonly samplesMs: number[];
  /** Wall time spent on the items (sum over chunks). */
  readonly elapsedMs: number;
  /** Per item, in list order: corpus indices of the results (searches only). */
  readonly hits?: number[][];
}

export interface Measured {
  readonly count: number;
  readonly perSecond: number;
  readonly latencyMs: LatencySummary;
}

export type ChunkRunner = (items: readonly number[]) => Promise<Series>;

/**
 * `concurrency` workers pull the next item until the chunk is done (closed loop). Elapsed
 * time is from the first start to the last end; the first failure is rethrown.
 */
export async function closedLoop(
  items: readonly number[],
  concurrency: number,
  operation: (item: number) => Promise<number[] | void>,
): Promise<Series> {
  const samplesMs: number[] = [];
  const hits: number[][] = new Array<number[]>(items.length);
  let next = 0;
  let failure: { error: unknown } | undefined;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (failure === undefined && next < items.length) {
      const position = next++;
      const begin = performance.now();
      try {
        hits[position] = (await operation(items[position])) ?? [];
      } catch (error) {
        failure ??= { error };
        return;
      }
      samplesMs.push(performance.now() - begin);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, () => worker()));
  if (failure !== undefined) throw failure.error;
  return { samplesMs, elapsedMs: performance.now() - started, hits };
}

export function chunked(items: readonly number[], size: number): number[][] {
  const chunks: number[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

/**
 * Runs every case over every chunk, case order rotating per chunk; `settle` runs before each
 * turn. A case may map a chunk to its own items (e.g. distinct memories to store).
 */
export async function interleave<K extends string>(
  cases: Record<K, ChunkRunner>,
  chunks: readonly (readonly number[])[],
  settle: () => Promise<void> = () => Promise.resolve(),
): Promise<Record<K, Series>> {
  const names = Object.keys(cases) as K[];
  const merged = Object.fromEntries(
    names.map((name) => [name, { samplesMs: [] as number[], elapsedMs: 0, hits: [] as number[][] }]),
  ) as Record<K, { samplesMs: number[]; elapsedMs: number; hits: number[][] }>;
  for (const [index, chunk] of chunks.entries()) {
    for (let turn = 0; turn < names.length; turn++) {
      const name = names[(index + turn) % names.length];
      await settle();
      const series = await cases[name](chunk);
      const into = merged[name];
      into.samplesMs.push(...series.samplesMs);
      into.elapsedMs += series.elapsedMs;
      into.hits.push(...(series.hits ?? []));
    }
  }
  return merged;
}

export function measured(series: Series): Measured {
  return {
    count: series.samplesMs.length,
    perSecond: series.elapsedMs > 0 ? series.samplesMs.length / (series.elapsedMs / 1000) : Number.NaN,
    latencyMs: summarize(series.samplesMs),
  };
}

/** Share of queries whose known answer is among the results, and the mean reciprocal rank. */
export function quality(hits: readonly number[][], targets: readonly number[]): { hitAt10: number; mrr: number } {
  let found = 0;
  let reciprocal = 0;
  hits.forEach((list, index) => {
    const rank = list.slice(0, 10).indexOf(targets[index] ?? -1);
    if (rank >= 0) {
      found += 1;
      reciprocal += 1 / (rank + 1);
    }
  });
  return { hitAt10: hits.length ? found / hits.length : Number.NaN, mrr: hits.length ? reciprocal / hits.length : 0 };
}

/** Mean share of each reference top-10 list that the corresponding list also holds. */
export function overlap(lists: readonly number[][], reference: readonly number[][]): number {
  let total = 0;
  let counted = 0;
  reference.forEach((expected, index) => {
    const top = expected.slice(0, 10);
    if (top.length === 0) return;
    const mine = new Set((lists[index] ?? []).slice(0, 10));
    total += top.filter((id) => mine.has(id)).length / top.length;
    counted += 1;
  });
  return counted > 0 ? total / counted : Number.NaN;
}
