import { execFile } from 'node:child_process';

/** What git says of the directory being indexed; all unknown outside a work tree or without git. */
export interface GitInfo {
  /** The checked-out branch; undefined on a detached HEAD. */
  readonly branch?: string;
  /** HEAD's full hash; undefined before the first commit. */
  readonly commit?: string;
  /** The work tree's top directory, whose .gitignore files apply to a subdirectory too. */
  readonly topLevel?: string;
}

/** One git command's first output line, or undefined when it fails (no git, not a repository, no commit). */
function git(cwd: string, args: readonly string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile('git', [...args], { cwd, timeout: 10_000, windowsHide: true }, (error, stdout) => {
      const line = String(stdout).split('\n')[0].trim();
      resolve(error || line === '' ? undefined : line);
    });
  });
}

export async function gitInfo(directory: string): Promise<GitInfo> {
  const [branch, commit, topLevel] = await Promise.all([
    git(directory, ['rev-parse', '--abbrev-ref', 'HEAD']),
    git(directory, ['rev-parse', '--verify', '--quiet', 'HEAD']),
    git(directory, ['rev-parse', '--show-toplevel']),
  ]);
  return {
    // `HEAD` is what --abbrev-ref prints for a detached HEAD: not a branch to index under.
    branch: branch === 'HEAD' ? undefined : branch,
    commit: commit && COMMIT.test(commit) ? commit : undefined,
    topLevel,
  };
}

/** The server's commit format (docs/code-index.md): 7-64 hex characters (SHA-1 and SHA-256 repositories). */
export const COMMIT = /^[0-9a-f]{7,64}$/;

/** The branch names the server takes: 1-200 characters of a git ref name (the server has the last word). */
export function plausibleBranch(name: string): boolean {
  return (
    name.length >= 1 &&
    name.length <= 200 &&
    // eslint-disable-next-line no-control-regex -- control characters are not in ref names
    !/[\s\u0000-\u001f\u007f~^:?*[\\]/.test(name) &&
    !name.includes('..') &&
    !name.startsWith('-') &&
    !name.startsWith('/') &&
    !name.endsWith('/') &&
    !name.endsWith('.lock')
  );
}
