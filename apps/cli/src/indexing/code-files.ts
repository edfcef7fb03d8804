import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { isBinaryFile } from 'isbinaryfile';
import { walkFiles, type WalkSkipReason } from './file-walker';

/**
 * Directories of code nobody on the project wrote (dependencies, virtual environments) or that
 * a build wrote: never entered, wherever they are, even when no .gitignore names them. A
 * project whose own sources live in such a directory names it with `!build/` in .cairnignore.
 */
export const VENDORED_DIRECTORIES: ReadonlySet<string> = new Set([
  'node_modules',
  'bower_components',
  'vendor',
  'third_party',
  '.venv',
  'venv',
  '__pycache__',
  'dist',
  'build',
  'target',
  'out',
  '.next',
  'coverage',
]);

/** Lock files: written by package managers, long, and nothing an agent should read for meaning. */
export const LOCK_FILES: ReadonlySet<string> = new Set([
  'package-lock.json',
  'yarn.lock',
  'pnpm-lock.yaml',
  'Cargo.lock',
  'go.sum',
  'poetry.lock',
  'composer.lock',
]);

/** Minified bundles and source maps: generated from sources the index already holds. */
const GENERATED_SUFFIXES = ['.min.js', '.min.css', '.map'];

/** How many lines of a file may carry a generator's mark (Go's convention puts it on line 1, others after a licence). */
const GENERATED_MARK_LINES = 5;

/** The server's limit on a path (docs/code-index.md); longer ones would fail their whole batch. */
const MAX_PATH_CHARS = 1024;

export type CodeSkipReason = WalkSkipReason | 'vendored' | 'generated' | 'binary' | 'not-utf8' | 'bad-path';

/** A file of the tree to index: where it is, its path as sent, and the hash the server keeps for it. */
export interface LocalCodeFile {
  /** Absolute, for reading it again when it is uploaded. */
  readonly path: string;
  /** Relative to the indexed root, POSIX separators: the path the server knows it by. */
  readonly source: string;
  readonly size: number;
  /** SHA-256 (hex) of its UTF-8 content: the manifest's hash for an unchanged file. */
  readonly hash: string;
}

export type CodeEntry =
  | { readonly kind: 'file'; readonly file: LocalCodeFile }
  | { readonly kind: 'skipped'; readonly source: string; readonly reason: CodeSkipReason; readonly directory?: true };

export interface CodeWalkOptions {
  readonly maxFileBytes: number;
  /** Where the ignore files start applying: the git work tree's top when the root is inside one. */
  readonly rulesFrom?: string;
}

/** The text of a file to index and its hash, or why it is not one. */
export type CodeContent =
  | { readonly kind: 'text'; readonly text: string; readonly hash: string }
  | { readonly kind: 'skipped'; readonly reason: 'binary' | 'not-utf8' | 'generated' | 'empty' };

/**
 * Every file under `root` worth indexing, hashed, and every one left out with its reason: the
 * shared walk with .gitignore and .cairnignore (read after .gitignore in the same directory, so
 * it can override it), vendored directories never entered, then the file's name (lock files,
 * minified bundles, source maps), its path (what the server would refuse) and its content
 * (binary, not UTF-8, a generator's mark) checked. Files are read one at a time: only hashes stay.
 */
export async function* collectCodeFiles(root: string, options: CodeWalkOptions): AsyncGenerator<CodeEntry> {
  const walk = walkFiles(['.'], {
    cwd: root,
    maxFileBytes: options.maxFileBytes,
    ignoreFiles: ['.gitignore', '.cairnignore'],
    rulesFrom: options.rulesFrom,
    skipDirectories: VENDORED_DIRECTORIES,
  });
  for await (const item of walk) {
    if (item.kind === 'skipped-directory') {
      yield { kind: 'skipped', source: item.source, reason: item.reason, directory: true };
    } else if (item.kind === 'skipped') yield item;
    else if (generatedByName(item.source)) yield { kind: 'skipped', source: item.source, reason: 'generated' };
    else if (!acceptablePath(item.source)) yield { kind: 'skipped', source: item.source, reason: 'bad-path' };
    else {
      const content = await readCodeFile(item.path);
      if (content === undefined) yield { kind: 'skipped', source: item.source, reason: 'unreadable' };
      else if (content.kind === 'skipped') yield { kind: 'skipped', source: item.source, reason: content.reason };
      else yield { kind: 'file', file: { path: item.path, source: item.source, size: item.size, hash: content.hash } };
    }
  }
}

/** A file's text and hash when it is text worth indexing; undefined when it cannot be read. */
export async function readCodeFile(path: string): Promise<CodeContent | undefined> {
  const bytes = await readFile(path).catch(() => undefined);
  return bytes && examineContent(bytes);
}

/**
 * What a file's bytes are: text worth indexing (valid UTF-8, not binary, no generator's mark)
 * with the SHA-256 of those bytes, or the reason it is not. The BOM is kept in the text
 * (`ignoreBOM`), so the text sent encodes back to exactly these bytes and the hash the server
 * computes over what it receives is this one.
 */
export async function examineContent(bytes: Buffer): Promise<CodeContent> {
  if (bytes.length === 0) return { kind: 'skipped', reason: 'empty' };
  if (await isBinaryFile(bytes, { size: bytes.length })) return { kind: 'skipped', reason: 'binary' };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return { kind: 'skipped', reason: 'not-utf8' };
  }
  if (hasGeneratedMark(text)) return { kind: 'skipped', reason: 'generated' };
  return { kind: 'text', text, hash: createHash('sha256').update(bytes).digest('hex') };
}

/** Lock files, minified bundles and source maps, by name. */
export function generatedByName(source: string): boolean {
  const name = basename(source);
  return LOCK_FILES.has(name) || GENERATED_SUFFIXES.some((suffix) => name.endsWith(suffix));
}

/**
 * A generator's mark in the first lines: `@generated` (Facebook's convention: protobuf, Relay,
 * Thrift) or Go's `Code generated … DO NOT EDIT.` (https://go.dev/s/generatedcode).
 */
export function hasGeneratedMark(text: string): boolean {
  const head = text.slice(0, 4096).split('\n', GENERATED_MARK_LINES);
  return head.some(
    (line) => line.includes('@generated') || (line.includes('Code generated') && line.includes('DO NOT EDIT')),
  );
}

/** A path the server takes (docs/code-index.md): no backslash or control character, at most 1,024 characters. */
function acceptablePath(source: string): boolean {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  return source.length <= MAX_PATH_CHARS && !/[\\\u0000-\u001f\u007f]/.test(source);
}
