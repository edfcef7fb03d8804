import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { lstat, opendir, readlink } from 'node:fs/promises';
import { join, posix, relative, sep } from 'node:path';

/** Files hashed at once: enough to keep the disk busy, few enough to leave the CPU to the app. */
const CONCURRENT_FILES = 8;
/** Read size per chunk; a file is never held whole in memory, however large. */
const CHUNK_BYTES = 1 << 20;

/** A file's sha256, streamed in chunks. */
export async function sha256OfFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * The digest of every regular file and symbolic link under `roots` (paths relative to `baseDir`;
 * a root may be a file), keyed by POSIX path relative to `baseDir`. Links are recorded by target,
 * not followed, so a link redirected elsewhere is a change. Paths in `exclude` (the manifest
 * itself) are left out; a root that does not exist contributes nothing.
 */
export async function digestTree(
  baseDir: string,
  roots: readonly string[],
  exclude: ReadonlySet<string> = new Set(),
): Promise<Map<string, string>> {
  const paths: string[] = [];
  for (const root of roots) await collect(baseDir, join(baseDir, root), paths);
  const wanted = paths.filter((path) => !exclude.has(path));
  const digests = new Map<string, string>();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < wanted.length) {
      const path = wanted[next++];
      digests.set(path, await digestEntry(join(baseDir, path)));
    }
  };
  await Promise.all(Array.from({ length: CONCURRENT_FILES }, worker));
  return new Map([...digests.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

async function digestEntry(absolute: string): Promise<string> {
  const stat = await lstat(absolute);
  return stat.isSymbolicLink() ? `symlink:${await readlink(absolute)}` : sha256OfFile(absolute);
}

/** Appends the files and links under `absolute` (walked without following links) to `into`. */
async function collect(baseDir: string, absolute: string, into: string[]): Promise<void> {
  const stat = await lstat(absolute).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!stat) return;
  if (stat.isFile() || stat.isSymbolicLink()) {
    into.push(toPosix(relative(baseDir, absolute)));
    return;
  }
  if (!stat.isDirectory()) return;
  for await (const entry of await opendir(absolute)) {
    const child = join(absolute, entry.name);
    if (entry.isDirectory()) await collect(baseDir, child, into);
    else if (entry.isFile() || entry.isSymbolicLink()) into.push(toPosix(relative(baseDir, child)));
  }
}

const toPosix = (path: string) => path.split(sep).join(posix.sep);
