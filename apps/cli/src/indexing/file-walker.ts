import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join, relative, resolve, sep } from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** Why the walk left a file out, on its name or its size alone (what its content says is for the caller). */
export type WalkSkipReason = 'ignored' | 'too-large' | 'empty' | 'unreadable';

/** A file the walk found and a command may read, or what it left out and why. */
export type Walked =
  | { readonly kind: 'file'; readonly path: string; readonly source: string; readonly size: number }
  | { readonly kind: 'skipped'; readonly source: string; readonly reason: WalkSkipReason }
  /** A directory left out as a whole: counted once, its contents never listed (node_modules can hold 100,000 files). */
  | { readonly kind: 'skipped-directory'; readonly source: string; readonly reason: 'ignored' | 'vendored' };

export interface WalkOptions {
  /** Files larger than this are skipped without being read. */
  readonly maxFileBytes: number;
  /** Sources are named relative to this directory, with POSIX separators. */
  readonly cwd: string;
  /**
   * The ignore files read in every walked directory, in this order: a later file's patterns
   * come after an earlier one's in the same directory, so they can override them (`!`).
   */
  readonly ignoreFiles: readonly string[];
  /**
   * The ignore files of the directories from here down to a given path apply too, as git reads
   * the repository's .gitignore files above a subdirectory (default: `cwd`).
   */
  readonly rulesFrom?: string;
  /** Directory names never entered wherever they are (vendored code, build output), unless an ignore file re-includes one with `!name/`. */
  readonly skipDirectories?: ReadonlySet<string>;
}

/** What every walk leaves alone: git's own store. */
const GIT_DIRECTORY = '.git';

interface Rules {
  readonly base: string;
  readonly matcher: Ignore;
}

/** The ignore patterns of one directory (all its ignore files, in order), if it has any. */
async function rulesOf(directory: string, names: readonly string[]): Promise<Rules | undefined> {
  const texts = await Promise.all(names.map((name) => readFile(join(directory, name), 'utf8').catch(() => undefined)));
  const present = texts.filter((text): text is string => text !== undefined);
  if (present.length === 0) return undefined;
  // One text per add(): in an array, a string is one pattern, not a file's lines.
  const matcher = ignore();
  for (const text of present) matcher.add(text);
  return { base: directory, matcher };
}

/**
 * What the ignore files say of `path` (a directory when `directory`), as git decides it: the
 * deepest ignore file with a pattern matching the path settles it, so `!keep.log` in a
 * subdirectory re-includes what the root's `*.log` excluded; undefined when no pattern matches.
 * Parent directories were checked on the way down.
 */
function verdictOf(rules: readonly Rules[], path: string, directory: boolean): 'ignored' | 'included' | undefined {
  for (let i = rules.length - 1; i >= 0; i -= 1) {
    const rel = relative(rules[i].base, path).split(sep).join('/');
    if (rel === '' || rel.startsWith('..')) continue;
    const verdict = rules[i].matcher.test(directory ? `${rel}/` : rel);
    if (verdict.ignored) return 'ignored';
    if (verdict.unignored) return 'included';
  }
  return undefined;
}

/**
 * The files under the given paths, walking directories depth-first in name order: the ignore
 * files (`.gitignore`, and `.cairnignore` for the code index) of every walked directory apply
 * with git's pattern rules (the `ignore` package), `.git/` is never entered, nor a directory of
 * `skipDirectories`. Empty files and files over the cap are skipped on their size alone; what
 * the content says (binary, encoding, generated) is for the caller, which reads it once. A file
 * named explicitly is taken even when ignored: naming it is the user's choice over .gitignore.
 */
export async function* walkFiles(paths: readonly string[], options: WalkOptions): AsyncGenerator<Walked> {
  const seen = new Set<string>();
  const sourceOf = (path: string) => relative(options.cwd, path).split(sep).join('/') || basename(path);

  async function* file(path: string): AsyncGenerator<Walked> {
    if (seen.has(path)) return;
    seen.add(path);
    const source = sourceOf(path);
    const info = await stat(path).catch(() => undefined);
    if (!info) yield { kind: 'skipped', source, reason: 'unreadable' };
    else if (info.size === 0) yield { kind: 'skipped', source, reason: 'empty' };
    else if (info.size > options.maxFileBytes) yield { kind: 'skipped', source, reason: 'too-large' };
    else yield { kind: 'file', path, source, size: info.size };
  }

  async function* walk(directory: string, rules: readonly Rules[]): AsyncGenerator<Walked> {
    const own = await rulesOf(directory, options.ignoreFiles);
    const active = own ? [...rules, own] : rules;
    const entries = await readdir(directory, { withFileTypes: true }).catch(() => []);
    // Code-unit order, not the locale's: the same on every machine, and the server's path order.
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const path = join(directory, entry.name);
      const isDirectory = entry.isDirectory();
      if (!isDirectory && !entry.isFile()) continue; // sockets, fifos, symlinks: not files to index
      // `.git` is a directory in a clone, a file pointing at it in a worktree or a submodule.
      if (entry.name === GIT_DIRECTORY) continue;
      const verdict = verdictOf(active, path, isDirectory);
      if (verdict === 'ignored') {
        yield isDirectory
          ? { kind: 'skipped-directory', source: sourceOf(path), reason: 'ignored' }
          : { kind: 'skipped', source: sourceOf(path), reason: 'ignored' };
      } else if (isDirectory && verdict !== 'included' && options.skipDirectories?.has(entry.name)) {
        // Only a pattern naming the directory itself (`!build/`) brings a vendored one back.
        yield { kind: 'skipped-directory', source: sourceOf(path), reason: 'vendored' };
      } else if (isDirectory) yield* walk(path, active);
      else yield* file(path);
    }
  }

  for (const given of paths) {
    const path = resolve(options.cwd, given);
    const info = await stat(path).catch(() => undefined);
    if (!info) yield { kind: 'skipped', source: given, reason: 'unreadable' };
    else if (info.isDirectory()) {
      const rulesFrom = resolve(options.cwd, options.rulesFrom ?? options.cwd);
      yield* walk(path, await parentRules(path, rulesFrom, options.ignoreFiles));
    } else yield* file(path);
  }
}

/** The ignore files of the directories from `from` down to the parent of a directory inside it. */
async function parentRules(path: string, from: string, names: readonly string[]): Promise<Rules[]> {
  const rel = relative(from, path);
  if (rel === '' || rel.startsWith('..')) return [];
  const rules: Rules[] = [];
  let directory = from;
  for (const part of ['', ...rel.split(sep).slice(0, -1)]) {
    directory = part ? join(directory, part) : directory;
    const own = await rulesOf(directory, names);
    if (own) rules.push(own);
  }
  return rules;
}
