import { createHash } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { type CliPaths } from '../settings/paths';

/**
 * The hooks' small files under the state directory (`$XDG_STATE_HOME/cairn/hooks`): what each
 * session was already shown, which transcript bytes were already sent for learning, what
 * PreCompact saved. JSON, written atomically (a temporary file, then rename) with mode 0600.
 */
export function hookStateFile(paths: CliPaths, folder: string, name: string): string {
  return join(paths.stateDir, 'hooks', folder, `${fileSafe(name)}.json`);
}

/** A session id or a path as a file name: kept when it is already safe, else its digest. */
export function fileSafe(name: string): string {
  return /^[A-Za-z0-9_-]{1,80}$/.test(name) ? name : createHash('sha256').update(name).digest('hex').slice(0, 32);
}

export async function readState<T>(file: string, fallback: T): Promise<T> {
  try {
    return JSON.parse(await readFile(file, 'utf8')) as T;
  } catch {
    return fallback;
  }
}

export async function writeState(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.${Date.now()}.tmp`;
  await writeFile(temporary, `${JSON.stringify(value)}\n`, { mode: 0o600 });
  await rename(temporary, file);
}

/** A lock older than this is from a hook that was killed: taken over. */
const STALE_LOCK_MS = 120_000;

/**
 * Runs `work` holding `<file>.lock` (created exclusively), or returns undefined at once when
 * another hook holds it: two hooks of one session (an async Stop and a SessionEnd) never send
 * the same transcript bytes twice, and none waits for the other.
 */
export async function withLock<T>(file: string, work: () => Promise<T>): Promise<T | undefined> {
  const lock = `${file}.lock`;
  await mkdir(dirname(lock), { recursive: true, mode: 0o700 });
  let handle;
  try {
    handle = await open(lock, 'wx', 0o600);
  } catch {
    const age = await stat(lock).then(
      (info) => Date.now() - info.mtimeMs,
      () => 0,
    );
    if (age < STALE_LOCK_MS) return undefined;
    await rm(lock, { force: true });
    try {
      handle = await open(lock, 'wx', 0o600);
    } catch {
      return undefined;
    }
  }
  try {
    return await work();
  } finally {
    await handle.close();
    await rm(lock, { force: true });
  }
}

/** Removes state files not touched for `maxAgeMs` (sessions long over), quietly. */
export async function pruneState(paths: CliPaths, folder: string, maxAgeMs: number): Promise<void> {
  const dir = join(paths.stateDir, 'hooks', folder);
  const names = await readdir(dir).catch(() => [] as string[]);
  const now = Date.now();
  for (const name of names) {
    const file = join(dir, name);
    const info = await stat(file).catch(() => undefined);
    if (info && now - info.mtimeMs > maxAgeMs) await rm(file, { force: true }).catch(() => undefined);
  }
}
