import { type LocalCodeFile } from './code-files';

/** What a run sends: the files the server lacks or holds another version of, and the paths it should forget. */
export interface IndexPlan {
  /** In path order. */
  readonly uploads: readonly LocalCodeFile[];
  /** Manifest paths with no file to index here any more (deleted, renamed, now ignored or skipped); in path order. */
  readonly removals: readonly string[];
  /** Files whose hash the manifest already has: nothing to send. */
  readonly unchanged: number;
}

/** Limits of one upload request (docs/code-index.md: 1-100 files), and of its size, under the server's body limit. */
export interface BatchLimits {
  readonly maxFiles: number;
  /** Content bytes; a single file larger than this still goes, alone. */
  readonly maxBytes: number;
}

const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The difference between the local tree and the server's manifest (path → hash): a path
 * missing there or with another hash is uploaded, a manifest path not among the local files is
 * removed. Comparing hashes, not times, lets ten clones of one repository share one index.
 */
export function planIndex(local: readonly LocalCodeFile[], manifest: ReadonlyMap<string, string>): IndexPlan {
  const uploads: LocalCodeFile[] = [];
  const present = new Set<string>();
  let unchanged = 0;
  for (const file of local) {
    present.add(file.source);
    if (manifest.get(file.source) === file.hash) unchanged += 1;
    else uploads.push(file);
  }
  const removals = [...manifest.keys()].filter((path) => !present.has(path));
  uploads.sort((a, b) => byPath(a.source, b.source));
  removals.sort(byPath);
  return { uploads, removals, unchanged };
}

/**
 * Consecutive batches of the uploads, each within the count and the byte budget: a batch is
 * closed when the next file would take it over either limit.
 */
export function batchUploads(files: readonly LocalCodeFile[], limits: BatchLimits): LocalCodeFile[][] {
  const batches: LocalCodeFile[][] = [];
  let current: LocalCodeFile[] = [];
  let bytes = 0;
  for (const file of files) {
    if (current.length > 0 && (current.length >= limits.maxFiles || bytes + file.size > limits.maxBytes)) {
      batches.push(current);
      current = [];
      bytes = 0;
    }
    current.push(file);
    bytes += file.size;
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

/** `items` in consecutive slices of at most `size`. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const slices: T[][] = [];
  for (let i = 0; i < items.length; i += size) slices.push(items.slice(i, i + size));
  return slices;
}

/**
 * Runs `task` over the items with at most `limit` in flight. The first failure stops new work
 * from starting; the ones in flight finish (their requests are already on the wire), then that
 * failure is thrown.
 */
export async function forEachLimited<T>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < items.length) {
      const item = items[next++];
      try {
        await task(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}
