import { type IntegrityManifest } from './contract/integrity-manifest';
import {
  type IntegrityDifference,
  type IntegrityMode,
  type IntegrityReport,
  type IntegrityStatus,
} from './contract/integrity-report';
import { digestTree } from './file-digests';
import { manifestSelfPath, readIntegrityManifest, UnreadableManifestError } from './integrity-manifest';

/** Paths of each kind named in a report; the counts are always whole. */
export const REPORTED_PATHS = 10;

/** The exit code of an app that refuses to start in strict mode (EX_DATAERR: its own files are not what was built). */
export const INTEGRITY_EXIT_CODE = 65;

export interface IntegrityCheckOptions {
  readonly mode: IntegrityMode;
  /** Absolute path of the manifest written at build time. */
  readonly manifestPath: string;
  /** The directory the manifest's paths are relative to (the apps' working directory: /app in the image). */
  readonly baseDir: string;
}

const NONE: IntegrityDifference = { count: 0, paths: [] };

/**
 * Compares the files on disk with the build-time manifest. Never throws for what it finds: a
 * missing or unreadable manifest is a status, so the caller decides (strict refuses anything
 * but `intact`). The whole tree is hashed again, file by file in streamed chunks.
 */
export async function checkIntegrity(options: IntegrityCheckOptions): Promise<IntegrityReport> {
  const base = { mode: options.mode, manifest: options.manifestPath, checked: 0 };
  const empty = { added: NONE, changed: NONE, missing: NONE };
  if (options.mode === 'off') {
    return { ...base, ...empty, status: 'skipped', detail: 'integrity check off (CAIRN_INTEGRITY=off)' };
  }
  let manifest: IntegrityManifest | undefined;
  try {
    manifest = await readIntegrityManifest(options.manifestPath);
  } catch (error) {
    if (!(error instanceof UnreadableManifestError)) throw error;
    return { ...base, ...empty, status: 'unreadable', detail: error.message };
  }
  if (!manifest) {
    return {
      ...base,
      ...empty,
      status: 'no-manifest',
      detail: `no integrity manifest at ${options.manifestPath}: nothing to compare (the image build writes it; from a checkout: npm run integrity:manifest)`,
    };
  }
  const self = manifestSelfPath(options.baseDir, options.manifestPath);
  const onDisk = await digestTree(options.baseDir, manifest.roots, new Set(self ? [self] : []));
  const expected = new Map(Object.entries(manifest.files));
  const added: string[] = [];
  const changed: string[] = [];
  const missing: string[] = [];
  for (const [path, digest] of onDisk) {
    const want = expected.get(path);
    if (want === undefined) added.push(path);
    else if (want !== digest) changed.push(path);
  }
  for (const path of expected.keys()) if (!onDisk.has(path)) missing.push(path);
  const differences = { added: difference(added), changed: difference(changed), missing: difference(missing) };
  const status: IntegrityStatus = added.length + changed.length + missing.length === 0 ? 'intact' : 'tampered';
  const built = `baseline of ${manifest.createdAt}${manifest.version ? ` (version ${manifest.version})` : ''}`;
  return {
    ...base,
    ...differences,
    baseline: { createdAt: manifest.createdAt, ...(manifest.version ? { version: manifest.version } : {}) },
    checked: onDisk.size,
    status,
    detail:
      status === 'intact'
        ? `${onDisk.size} files match the ${built}`
        : `${changed.length} changed, ${added.length} added, ${missing.length} missing against the ${built}: ` +
          'the running files are not those built (redeploy the image by its digest)',
  };
}

/** True when the app must not start: strict mode and anything but a verified, unchanged tree. */
export function refusesToStart(report: IntegrityReport): boolean {
  return report.mode === 'strict' && report.status !== 'intact';
}

function difference(paths: string[]): IntegrityDifference {
  return { count: paths.length, paths: [...paths].sort().slice(0, REPORTED_PATHS) };
}
