/**
 * The labelled questions context_check is calibrated on, made from this repository's own git
 * history: a commit's subject is the question a developer would have asked ("where do we … ?"),
 * the files it changed are the answer. Pure parsing and filtering here (unit-tested on a fixed
 * `git log` text); `readLabelledSet` runs git.
 */
import { execFileSync } from 'node:child_process';

/**
 * `git log` as parsed below: NUL before each commit, then `<hash> TAB <subject>`, then the paths
 * (unquoted, as `git ls-files -z` gives them, so the two compare).
 */
export const GIT_LOG_ARGS = [
  '-c',
  'core.quotepath=off',
  'log',
  '--no-merges',
  '--name-only',
  '--format=%x00%H%x09%s',
] as const;

/** A commit touching more files is a refactor or a sweep: no single place answers its subject. */
export const MAX_FILES = 4;
/** Shorter subjects ("lint", "fix typo") say too little to be a question. */
export const MIN_WORDS = 4;
/** Longer subjects are changelogs, not the sentence an agent asks. */
export const MAX_QUESTION_CHARS = 200;
/** A few hundred questions keep the calibration within a few minutes of the bench. */
export const MAX_QUESTIONS = 400;

export interface Commit {
  readonly hash: string;
  readonly subject: string;
  readonly files: readonly string[];
}

export interface LabelledQuestion {
  readonly commit: string;
  readonly question: string;
  /** The files the commit changed: the answer. */
  readonly files: readonly string[];
}

export function parseGitLog(text: string): Commit[] {
  const commits: Commit[] = [];
  for (const record of text.split('\0')) {
    const lines = record.split('\n');
    const head = lines[0] ?? '';
    const tab = head.indexOf('\t');
    if (tab < 0) continue;
    const files = lines
      .slice(1)
      .map((line) => line.trim())
      .filter(Boolean);
    commits.push({ hash: head.slice(0, tab).trim(), subject: head.slice(tab + 1).trim(), files });
  }
  return commits;
}

/** "code index: scores as float8" → "scores as float8": the scope names an area, not the question. */
const SCOPE_PREFIX = /^[A-Za-z0-9][\w ./@[\]()-]{0,39}:\s+/;

/** The question a commit subject makes, or undefined when it is not a real sentence. */
export function questionOf(subject: string): string | undefined {
  if (/^(merge|revert)\b/i.test(subject)) return undefined;
  const question = subject.replace(SCOPE_PREFIX, '').trim();
  const words = question.split(/\s+/).filter((word) => /\p{L}/u.test(word));
  if (words.length < MIN_WORDS || question.length > MAX_QUESTION_CHARS) return undefined;
  return question;
}

/**
 * Commits with a real sentence as subject touching 1 to MAX_FILES files that all still exist in
 * the tree (a deleted file cannot be found, so it would label the index wrong, not the model), most
 * recent first, at most `limit`.
 */
export function labelledSet(
  commits: readonly Commit[],
  existing: ReadonlySet<string>,
  limit = MAX_QUESTIONS,
): LabelledQuestion[] {
  const set: LabelledQuestion[] = [];
  for (const commit of commits) {
    if (set.length >= limit) break;
    if (commit.files.length < 1 || commit.files.length > MAX_FILES) continue;
    if (!commit.files.every((file) => existing.has(file))) continue;
    const question = questionOf(commit.subject);
    if (question === undefined) continue;
    set.push({ commit: commit.hash, question, files: [...commit.files] });
  }
  return set;
}

/** Deterministic halves: the parity of the hash's last hex digit (even: fit, odd: held out). */
export function splitOf(commit: string): 'fit' | 'heldOut' {
  const last = Number.parseInt(commit.slice(-1), 16);
  return Number.isNaN(last) || last % 2 === 0 ? 'fit' : 'heldOut';
}

/** The path of a piece of evidence: a code ref is `path:start-end`, anything else has none. */
export function evidencePath(ref: string): string {
  const colon = ref.lastIndexOf(':');
  return colon < 0 ? ref : ref.slice(0, colon);
}

export type HistoryRead = { readonly shallow: true } | { readonly shallow: false; readonly set: LabelledQuestion[] };

/** The labelled set of the repository at `root`; a shallow clone has no history to make one from. */
export function readLabelledSet(root: string, limit = MAX_QUESTIONS): HistoryRead {
  const git = (args: readonly string[]) =>
    execFileSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
  if (git(['rev-parse', '--is-shallow-repository']).trim() === 'true') return { shallow: true };
  const existing = new Set(git(['ls-files', '-z']).split('\0').filter(Boolean));
  return { shallow: false, set: labelledSet(parseGitLog(git(GIT_LOG_ARGS)), existing, limit) };
}
