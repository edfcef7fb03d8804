import { execFile } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { delimiter, join } from 'node:path';

export type Log = (line: string) => void;
export const silent: Log = () => undefined;

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command without a shell and resolves with its exit code instead of rejecting. */
export function run(cmd: string, args: readonly string[], opts: RunOptions = {}): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      cmd,
      args,
      { cwd: opts.cwd, env: opts.env, timeout: opts.timeoutMs ?? 120_000, maxBuffer: 16 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err && typeof err.code !== 'number') {
          reject(new Error(`${cmd} ${args.join(' ')}: ${err.message}`));
          return;
        }
        resolve({ code: err ? Number(err.code) : 0, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** Like run() but treats a non-zero exit as an error carrying the command's stderr. */
export async function runOk(cmd: string, args: readonly string[], opts: RunOptions = {}): Promise<string> {
  const res = await run(cmd, args, opts);
  if (res.code !== 0) {
    const output = (res.stderr || res.stdout).trim();
    throw new Error(`\`${cmd} ${args.join(' ')}\` exited with ${res.code}${output ? `:\n${output}` : ''}`);
  }
  return res.stdout;
}

export function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

export function which(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this PATH entry
    }
  }
  return undefined;
}

/** Lets the OS pick a free port; there is a small race until the caller binds it. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('could not determine a free port'))));
    });
  });
}

export function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

export async function choosePort(preferred: number | undefined): Promise<number> {
  if (preferred && (await isPortFree(preferred))) return preferred;
  return freePort();
}

export function tail(file: string, lines = 30): string {
  if (!existsSync(file)) return `(no log file at ${file})`;
  const text = readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  return `--- last lines of ${file} ---\n${text}`;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM means it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Quotes for /bin/sh; only needed for the `su -c` fallback, which has no argv form. */
export function shQuote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

/**
 * When a process started, in clock ticks since boot (field 22 of /proc/<pid>/stat): with the pid
 * it names one process for good, where a pid alone may be reused after that process is gone.
 * Undefined where there is no /proc (the pid alone is then all there is).
 */
export function processStartTicks(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count after the last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** Whether the process `pid` that started at `startTicks` (when known) is still running. */
export function isSameProcess(pid: number, startTicks: string | undefined): boolean {
  if (!isAlive(pid)) return false;
  if (startTicks === undefined) return true;
  const now = processStartTicks(pid);
  return now === undefined || now === startTicks;
}
