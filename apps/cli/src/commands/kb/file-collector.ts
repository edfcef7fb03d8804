import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { isBinaryFile } from 'isbinaryfile';

/** A file `cairn kb index` will read, or why it will not. */
export type Collected =
  | { readonly kind: 'file'; readonly path: string; readonly source: string; readonly size: number }
  | {
      readonly kind: 'skipped';
      readonly source: string;
      readonly reason: 'ignored' | 'binary' | 'too-large' | 'empty' | 'unreadable';
    };

export interface CollectOptions {
  /** Files larger than this are skipped (the server caps a request body; a document is text, not a dump). */
  readonly maxFileBytes: number;
  /** Sources are named relative to this directory (the current one). */
  readonly cwd: string;
}

/** Directories never worth indexing even without a .gitignore saying so. */
const ALWAYS_IGNORED = ['.git/'];

interface Rules {
  readonly base: string;
  readonly matcher: Ignore;
}

async function rulesOf(directory: string): Promise<Rules | undefined> {
  const text = await readFile(join(directory, '.gitignore'), 'utf8').catch(() => undefined);
  return text === undefined ? undefined : { base: directory, matcher: ignore().add(text) };
}

/** Whether `path` (a directory when `directory`) is ignored by any .gitignore from the root down to it, as git reads them. */
function ignoredBy(rules: readonly Rules[], path: string, directory: boolean): boolean {
  for (const rule of rules) {
    const rel = relative(rule.base, path).split(sep).join('/');
    if (rel === '' || rel.startsWith('..')) continue;
    if (rule.matcher.ignores(directory ? `${rel}/` : rel)) return true;
  }
  return false;
}

/**
 * The files under the given paths, walking directories depth-first in name order: every
 * .gitignore from a walked directory down applies (the `ignore` package implements git's
 * pattern rules), `.git/` is never entered, binary files (isbinaryfile's content sniffing) and
 * files over the cap are skipped with the reason. A file named explicitly is taken unless
 * binary or too large: naming it is the user's choice over .gitignore.
 */
export async function* collectFiles(paths: readonly string[], options: CollectOptions): AsyncGenerator<Collected> {
  const always = ignore().add(ALWAYS_IGNORED);
  const seen = new Set<string>();
  const sourceOf = (path: string) => relative(options.cwd, path).split(sep).join('/') || basename(path);

  async function* file(path: string): AsyncGenerator<Collected> {
    if (seen.has(path)) return;
    seen.add(path);
    const source = sourceOf(path);
    try {
      const info = await stat(path);
      if (info.size === 0) yield { kind: 'skipped', source, reason: 'empty' };
      else if (info.size > options.maxFileBytes) yield { kind: 'skipped', source, reason: 'too-large' };
      else if (await isBinaryFile(path)) yield { kind: 'skipped', source, reason: 'binary' };
      else yield { kind: 'file', path, source, size: info.size };
    } catch {
      yield { kind: 'skipped', source, reason: 'unreadable' };
    }
  }

  async function* walk(directory: string, rules: readonly Rules[]): AsyncGenerator<Collected> {
    const own = await rulesOf(directory);
    const active = own ? [...rules, own] : rules;
    const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => a.name.localeCompare(b.name));
    for (const entry of entries) {
      const path = join(directory, entry.name);
      const isDirectory = entry.isDirectory();
      if (!isDirectory && !entry.isFile()) continue; // sockets, fifos, symlinks: not documents
      if (always.ignores(isDirectory ? `${entry.name}/` : entry.name) || ignoredBy(active, path, isDirectory)) {
        if (!isDirectory) yield { kind: 'skipped', source: sourceOf(path), reason: 'ignored' };
        continue;
      }
      if (isDirectory) yield* walk(path, active);
      else yield* file(path);
    }
  }

  for (const given of paths) {
    const path = resolve(options.cwd, given);
    const info = await stat(path).catch(() => undefined);
    if (!info) {
      yield { kind: 'skipped', source: given, reason: 'unreadable' };
      continue;
    }
    if (info.isDirectory()) yield* walk(path, await parentRules(path, options.cwd));
    else yield* file(path);
  }
}

/** The .gitignore files of the directories between the working directory and a path given inside it. */
async function parentRules(path: string, cwd: string): Promise<Rules[]> {
  const rel = relative(cwd, path);
  if (rel === '' || rel.startsWith('..')) return [];
  const rules: Rules[] = [];
  let directory = cwd;
  for (const part of ['', ...rel.split(sep).slice(0, -1)]) {
    directory = part ? join(directory, part) : directory;
    const own = await rulesOf(directory);
    if (own) rules.push(own);
  }
  return rules;
}
