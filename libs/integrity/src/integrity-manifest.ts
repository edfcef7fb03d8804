import { readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, posix, relative, sep } from 'node:path';
import {
  INTEGRITY_MANIFEST_FORMAT,
  type IntegrityManifest,
  integrityManifestSchema,
} from './contract/integrity-manifest';
import { digestTree } from './file-digests';

/** The manifest's own path relative to the base directory, when it lies inside it (it is never listed). */
export function manifestSelfPath(baseDir: string, manifestPath: string): string | undefined {
  const path = relative(baseDir, manifestPath);
  if (path === '' || path.startsWith('..') || isAbsolute(path)) return undefined;
  return path.split(sep).join(posix.sep);
}

export interface WriteManifestOptions {
  readonly baseDir: string;
  /** Files and directories to cover, relative to `baseDir`. */
  readonly roots: readonly string[];
  /** Absolute path of the manifest to write. */
  readonly manifestPath: string;
  readonly version?: string;
  readonly now?: Date;
}

/** Hashes the roots and writes the manifest (through a temporary file, so a reader never sees half of it). */
export async function writeIntegrityManifest(options: WriteManifestOptions): Promise<IntegrityManifest> {
  const self = manifestSelfPath(options.baseDir, options.manifestPath);
  const files = await digestTree(options.baseDir, options.roots, new Set(self ? [self] : []));
  if (files.size === 0) throw new Error(`no files under ${options.roots.join(', ')} in ${options.baseDir}`);
  const manifest: IntegrityManifest = {
    format: INTEGRITY_MANIFEST_FORMAT,
    algorithm: 'sha256',
    createdAt: (options.now ?? new Date()).toISOString(),
    ...(options.version ? { version: options.version } : {}),
    roots: [...options.roots],
    files: Object.fromEntries(files),
  };
  const temporary = join(dirname(options.manifestPath), `.integrity-${process.pid}.tmp`);
  await writeFile(temporary, `${JSON.stringify(manifest, null, 1)}\n`);
  await rename(temporary, options.manifestPath);
  return manifest;
}

/** Thrown for a manifest that exists but cannot be used; the message says why. */
export class UnreadableManifestError extends Error {}

/** The manifest at `path`, validated; undefined when there is none. */
export async function readIntegrityManifest(path: string): Promise<IntegrityManifest | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UnreadableManifestError(`cannot read ${path}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UnreadableManifestError(`${path} is not JSON`);
  }
  const parsed = integrityManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UnreadableManifestError(
      `${path} is not a ${INTEGRITY_MANIFEST_FORMAT} manifest: ${issue.path.join('.') || '(root)'} ${issue.message}`,
    );
  }
  return parsed.data;
}
