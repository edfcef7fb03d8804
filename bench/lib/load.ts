import { type LatencySummary, summarize } from './stats';

export interface LoadOptions {
  /** Operations kept in flight (closed loop: each worker starts its next one when the last ends). */
  readonly concurrency: number;
  /** Unmeasured lead-in, per case. */
  readonly warmupSeconds: number;
  /** Measured time, per case. */
  readonly seconds: number;
}

export interface LoadResult {
  readonly concurrency: number;
  /** Operations started and completed inside measured slices. */
  readonly operations: number;
  /** Sum of the measured slices' durations. */
  readonly elapsedSeconds: number;
  readonly perSecond: number;
  readonly latencyMs: LatencySummary;
}

export type Operation = () => Promise<void>;

/**
 * Told when each measured slice starts (with its case) and ends (with the calls completed
 * in it), e.g. to charge resources read around the slice to that case.
 */
export type SliceObserver = (name: string) => (calls: number) => void;

/** Length of one measured slice; cases take turns slice by slice. */
const SLICE_SECONDS = 0.5;

interface Slice {
  readonly samples: number[];
  readonly elapsedMs: number;
}

/**
 * Keeps `concurrency` calls of `operation` in flight for `ms`, then lets the ones in flight
 * finish. Throughput counts only calls started in the window, over the time until the last
 * of them ended. The first failure stops every worker and is rethrown.
 */
async function closedLoop(operation: Operation, concurrency: number, ms: number): Promise<Slice> {
  const started = performance.now();
  const stopAt = started + ms;
  const samples: number[] = [];
  let failure: { error: unknown } | undefined;
  let lastEnd = started;
  const worker = async (): Promise<void> => {
    while (failure === undefined) {
      const begin = performance.now();
      if (begin >= stopAt) return;
      try {
        await operation();
      } catch (error) {
        failure ??= { error };
        return;
      }
      const end = performance.now();
      samples.push(end - begin);
      if (end > lastEnd) lastEnd = end;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, () => worker()));
  if (failure !== undefined) throw failure.error;
  return { samples, elapsedMs: lastEnd - started };
}

/**
 * Measures several cases (a baseline and what is compared with it) under the same closed
 * loop. After one warm-up each, they take turns in short slices, rotating who goes first,
 * so background noise and drift during the run land on every case alike and the ratios
 * between them stay meaningful on a busy machine. `settle` runs before every slice.
 */
export async function compareUnderLoad<K extends string>(
  cases: Record<K, Operation>,
  options: LoadOptions,
  settle: () => Promise<void> = () => Promise.resolve(),
  observe?: SliceObserver,
): Promise<Record<K, LoadResult>> {
  const names = Object.keys(cases) as K[];
  for (const name of names) {
    await settle();
    await closedLoop(cases[name], options.concurrency, options.warmupSeconds * 1000);
  }
  const slices = Math.max(1, Math.round(options.seconds / SLICE_SECONDS));
  const sliceMs = (options.seconds * 1000) / slices;
  const collected = new Map<K, { samples: number[]; elapsedMs: number }>(
    names.map((name) => [name, { samples: [], elapsedMs: 0 }]),
  );
  for (let slice = 0; slice < slices; slice++) {
    for (let turn = 0; turn < names.length; turn++) {
      const name = names[(slice + turn) % names.length];
      await settle();
      const done = observe?.(name);
      const result = await closedLoop(cases[name], options.concurrency, sliceMs);
      done?.(result.samples.length);
      const into = collected.get(name);
      if (into) {
        for (const sample of result.samples) into.samples.push(sample);
        into.elapsedMs += result.elapsedMs;
      }
    }
  }
  const results = {} as Record<K, LoadResult>;
  for (const [name, { samples, elapsedMs }] of collected) {
    results[name] = {
      concurrency: options.concurrency,
      operations: samples.length,
      elapsedSeconds: elapsedMs / 1000,
      perSecond: elapsedMs > 0 ? samples.length / (elapsedMs / 1000) : Number.NaN,
      latencyMs: summarize(samples),
    };
  }
  return results;
}
