import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/**
 * The OS sandbox `cairn exec` runs a command in. Only bubblewrap for now; nsjail is not wired in
 * (docs/cli.md says so). A bwrap on PATH is not trusted to work: containers and hardened kernels
 * often forbid the user namespaces it needs, so a probe run with the same isolation decides.
 */
export type Sandbox =
  { readonly kind: 'bubblewrap'; readonly path: string } | { readonly kind: 'none'; readonly reason: string };

export interface SandboxOptions {
  readonly cwd: string;
  /** The working directory is writable unless this is set. */
  readonly readOnlyCwd: boolean;
  readonly network: boolean;
  /** Directories hidden behind an empty tmpfs: the user's home, runtime sockets, Cairn's own config. */
  readonly hide: readonly string[];
}

const PROBE_TIMEOUT_MS = 5_000;

/** The first executable called `name` on a PATH, or none. */
export function findExecutable(name: string, path: string | undefined): string | undefined {
  if (name.includes('/')) return isExecutable(name) ? name : undefined;
  for (const dir of (path ?? '').split(delimiter)) {
    if (!dir || !isAbsolute(dir)) continue;
    const candidate = join(dir, name);
    if (isExecutable(candidate)) return candidate;
  }
  return undefined;
}

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** bubblewrap when it is on PATH and a probe run inside it succeeds; else why not. */
export async function detectSandbox(path: string | undefined, options: SandboxOptions): Promise<Sandbox> {
  const bwrap = findExecutable('bwrap', path);
  if (!bwrap) return { kind: 'none', reason: 'no bwrap (bubblewrap) or nsjail on PATH' };
  const probe = findExecutable('true', path) ?? '/bin/true';
  const failure = await new Promise<string | undefined>((resolve) => {
    execFile(
      bwrap,
      bubblewrapArgs(options, [probe]),
      { timeout: PROBE_TIMEOUT_MS, env: { PATH: path ?? '' } },
      (error, _stdout, stderr) => {
        if (!error) resolve(undefined);
        else resolve((stderr.trim().split('\n')[0] || error.message).slice(0, 300));
      },
    );
  });
  if (failure) return { kind: 'none', reason: `bwrap is on PATH (${bwrap}) but cannot run here: ${failure}` };
  return { kind: 'bubblewrap', path: bwrap };
}

/**
 * bwrap's arguments: the system read-only, private /dev, /proc and /tmp, the home directory and
 * the other hidden paths empty, the working directory bound back (writable or not), every
 * namespace unshared (so no network unless asked), killed with its parent, and a new session so
 * the command cannot push keystrokes into the terminal (TIOCSTI).
 */
export function bubblewrapArgs(options: SandboxOptions, command: readonly string[]): string[] {
  const args = ['--ro-bind', '/', '/', '--dev', '/dev', '--proc', '/proc', '--tmpfs', '/tmp'];
  // A tmpfs needs an existing mount point on the read-only root; a path that is not there hides nothing anyway.
  for (const dir of options.hide) if (dir !== '/' && existsSync(dir)) args.push('--tmpfs', dir);
  if (options.cwd !== '/') args.push(options.readOnlyCwd ? '--ro-bind' : '--bind', options.cwd, options.cwd);
  args.push('--chdir', options.cwd, '--unshare-all');
  if (options.network) args.push('--share-net');
  args.push('--die-with-parent', '--new-session', '--', ...command);
  return args;
}

/** How the captured document and the terminal describe where the command ran. */
export function describeSandbox(sandbox: Sandbox, options: SandboxOptions): string {
  if (sandbox.kind === 'none') return `none (${sandbox.reason})`;
  return `bubblewrap (network ${options.network ? 'on' : 'off'}, working directory ${options.readOnlyCwd ? 'read-only' : 'writable'})`;
}
