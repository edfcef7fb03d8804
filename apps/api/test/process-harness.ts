import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { delimiter, dirname, resolve } from 'node:path';
import { Client } from 'pg';
import { freePort } from '../../../tools/local/util';

/**
 * Runs the BUILT apps (`npm run build` → dist/) as real child processes, the way a container
 * or `npm start` runs them, and talks to them over real HTTP with Node's global fetch.
 */

export const REPO_ROOT = resolve(__dirname, '../../..');

export type ProcessAppName = 'api' | 'mcp-gateway' | 'worker';

export const APP_ENTRY: Record<ProcessAppName, string> = {
  api: 'dist/apps/api/src/main.js',
  'mcp-gateway': 'dist/apps/mcp-gateway/src/main.js',
  worker: 'dist/apps/worker/src/main.js',
};
export const MIGRATE_ENTRY = 'dist/apps/api/src/migrate.js';

export const PORT_VARIABLE: Record<ProcessAppName, string> = {
  api: 'API_PORT',
  'mcp-gateway': 'MCP_PORT',
  worker: 'WORKER_PORT',
};

const POLL_INTERVAL_MS = 50;
// A bound on a hang, not a speed test: a loaded 2-core CI machine has taken more than 15 s to boot an app.
export const BOOT_TIMEOUT_MS = 30_000;

export interface Secrets {
  /** ≥ 32 printable characters, as the api requires. */
  readonly adminToken: string;
  /** base64 of 32 random bytes. */
  readonly masterKey: string;
  /** Put into DATABASE_URL; the throwaway PostgreSQL trusts 127.0.0.1, so any password works. */
  readonly databasePassword: string;
}

export function generateSecrets(): Secrets {
  return {
    adminToken: `adm-${randomBytes(32).toString('base64url')}`,
    masterKey: randomBytes(32).toString('base64'),
    databasePassword: `pw${randomBytes(12).toString('hex')}`,
  };
}

/** A port nobody listens on right now: shared with the local-services tooling. */
export { freePort };

export function withPassword(url: string, password: string): string {
  const parsed = new URL(url);
  parsed.password = password;
  return parsed.toString();
}

/**
 * The complete environment of a child: nothing is inherited from the test runner (no stray
 * DATABASE_URL, LOG_LEVEL…). PATH points at the running node; HOME is the user's home.
 * Entries whose value is `undefined` are left out, which is how a test removes a variable.
 */
export function childEnvironment(variables: Record<string, string | undefined>): Record<string, string> {
  const env: Record<string, string> = {
    PATH: [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(delimiter),
    HOME: homedir(),
  };
  for (const [name, value] of Object.entries(variables)) {
    if (value !== undefined) env[name] = value;
  }
  return env;
}

export interface ExitStatus {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

const running = new Set<ChildApp>();
let spawnedSinceLastTake: ChildApp[] = [];

/** One child process with its output collected as it arrives. */
export class ChildApp {
  stdout = '';
  stderr = '';
  exitStatus: ExitStatus | undefined;
  readonly exited: Promise<ExitStatus>;
  private readonly child: ChildProcess;
  private readonly listeners = new Set<() => void>();

  constructor(
    readonly label: string,
    script: string,
    env: Record<string, string>,
    /** Command-line arguments after the script (a tool's options). */
    args: readonly string[] = [],
  ) {
    this.child = spawn(process.execPath, [script, ...args], {
      cwd: REPO_ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stdout += chunk;
      this.notify();
    });
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr += chunk;
      this.notify();
    });
    running.add(this);
    spawnedSinceLastTake.push(this);
    this.exited = new Promise((resolveExit) => {
      // 'close' fires after the exit and after stdout/stderr have been fully read.
      this.child.once('close', (code, signal) => {
        this.exitStatus = { code, signal };
        running.delete(this);
        this.notify();
        resolveExit(this.exitStatus);
      });
      this.child.once('error', (error) => {
        this.stderr += `[spawn error] ${error.message}\n`;
      });
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.exitStatus === undefined;
  }

  signal(signal: NodeJS.Signals): void {
    if (this.alive) this.child.kill(signal);
  }

  /** Everything the process wrote, for failure messages. */
  output(): string {
    return `--- ${this.label} (pid ${this.pid}) stdout ---\n${this.stdout}\n--- stderr ---\n${this.stderr}`;
  }

  /** stdout parsed as JSON lines (pino); lines that are not JSON are skipped. */
  logLines(): Record<string, any>[] {
    return this.stdout
      .split('\n')
      .filter((line) => line.trim().startsWith('{'))
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as Record<string, any>];
        } catch {
          return [];
        }
      });
  }

  /** Resolves once the process has exited; rejects (with its output) if that takes longer than timeoutMs. */
  async waitForExit(timeoutMs: number): Promise<ExitStatus> {
    await this.until(() => !this.alive, timeoutMs, `exit within ${timeoutMs} ms`);
    return this.exitStatus!;
  }

  /** Resolves with the first JSON log line matching `match`; rejects on timeout or exit. */
  async waitForLog(match: (line: Record<string, any>) => boolean, timeoutMs = BOOT_TIMEOUT_MS) {
    let found: Record<string, any> | undefined;
    await this.until(
      () => {
        found = this.logLines().find(match);
        if (!found && !this.alive) throw new Error(`${this.label} exited before logging the expected line`);
        return found !== undefined;
      },
      timeoutMs,
      'the expected log line',
    );
    return found!;
  }

  /** SIGKILL if still alive, then wait for the exit. */
  async kill(): Promise<void> {
    if (!this.alive) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  private notify(): void {
    for (const listener of [...this.listeners]) listener();
  }

  /** Re-checks `condition` on every output chunk and on exit, instead of sleeping. */
  private until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
    return new Promise((resolveWait, reject) => {
      const check = () => {
        let done: boolean;
        try {
          done = condition();
        } catch (error) {
          finish();
          reject(new Error(`${(error as Error).message}\n${this.output()}`));
          return;
        }
        if (done) {
          finish();
          resolveWait();
        }
      };
      const timer = setTimeout(() => {
        finish();
        reject(new Error(`${this.label}: timed out waiting for ${what}\n${this.output()}`));
      }, timeoutMs);
      const finish = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
      check();
    });
  }
}

/** Every child started since the previous call (to check their output after each test). */
export function takeSpawnedChildren(): ChildApp[] {
  const taken = spawnedSinceLastTake;
  spawnedSinceLastTake = [];
  return taken;
}

/** SIGKILLs every child still alive (afterEach/afterAll) and waits until they are gone. */
export async function killAllChildren(): Promise<void> {
  await Promise.all([...running].map((child) => child.kill()));
}

export interface HttpResult<T = any> {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: T;
}

/** Real HTTP: the whole body is read, JSON is parsed when the response says it is JSON. */
export async function http<T = any>(url: string, init: RequestInit = {}): Promise<HttpResult<T>> {
  const response = await fetch(url, { ...init, signal: init.signal ?? AbortSignal.timeout(10_000) });
  const text = await response.text();
  const body = (response.headers.get('content-type') ?? '').includes('json') ? JSON.parse(text) : text;
  return { status: response.status, headers: response.headers, text, body: body as T };
}

export interface RunningApp {
  readonly app: ProcessAppName;
  readonly port: number;
  readonly url: string;
  readonly process: ChildApp;
}

/** Spawns `node dist/apps/<app>/src/main.js` on a free port of 127.0.0.1; does not wait. */
export async function spawnApp(
  app: ProcessAppName,
  variables: Record<string, string | undefined>,
): Promise<RunningApp> {
  const port = await freePort();
  const env = childEnvironment({ HOST: '127.0.0.1', [PORT_VARIABLE[app]]: String(port), ...variables });
  const child = new ChildApp(app, APP_ENTRY[app], env);
  return { app, port, url: `http://127.0.0.1:${port}`, process: child };
}

/** Polls /healthz every 50 ms until it answers 200; fails early if the process exits. */
export async function waitUntilHealthy(running: RunningApp, timeoutMs = BOOT_TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    if (!running.process.alive) {
      throw new Error(
        `${running.app} exited (${JSON.stringify(running.process.exitStatus)}) before it was healthy\n${running.process.output()}`,
      );
    }
    try {
      const response = await fetch(`${running.url}/healthz`, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
      last = `status ${response.status}`;
    } catch (error) {
      last = String((error as Error).cause ?? error);
    }
    await new Promise((wake) => setTimeout(wake, POLL_INTERVAL_MS));
  }
  throw new Error(`${running.app} not healthy within ${timeoutMs} ms (${last})\n${running.process.output()}`);
}

export async function startApp(
  app: ProcessAppName,
  variables: Record<string, string | undefined>,
): Promise<RunningApp> {
  const started = await spawnApp(app, variables);
  await waitUntilHealthy(started);
  return started;
}

/** Polls `probe` every 50 ms until it returns a value other than undefined. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (error) {
      lastError = error;
    }
    await new Promise((wake) => setTimeout(wake, POLL_INTERVAL_MS));
  }
  throw new Error(
    `timed out after ${timeoutMs} ms waiting for ${what}${lastError instanceof Error ? `: ${lastError.message}` : ''}`,
  );
}

/** `node dist/apps/api/src/migrate.js`, i.e. `npm run migrate` without the build step. */
export async function runMigrate(databaseUrl: string, timeoutMs = 60_000) {
  const child = new ChildApp('migrate', MIGRATE_ENTRY, childEnvironment({ DATABASE_URL: databaseUrl }));
  const status = await child.waitForExit(timeoutMs);
  return { ...status, stdout: child.stdout, stderr: child.stderr, output: child.output() };
}

/** The error code behind a failed fetch (ECONNREFUSED, ECONNRESET, UND_ERR_SOCKET…). */
export function fetchErrorCode(error: unknown): string {
  let current: any = error;
  for (let depth = 0; current && depth < 5; depth += 1) {
    if (typeof current.code === 'string') return current.code;
    if (Array.isArray(current.errors) && current.errors[0]) current = current.errors[0];
    else current = current.cause;
  }
  return `unknown: ${String(error)}`;
}

export interface TableLock {
  /** Backends of `applicationName` (e.g. `cairn-api`) currently waiting on a lock in this database. */
  waiting(applicationName: string): Promise<number>;
  /** Polls until exactly that many wait: those requests are certainly in flight inside the app. */
  waitForWaiting(applicationName: string, count: number, timeoutMs?: number): Promise<void>;
  release(): Promise<void>;
}

const heldLocks = new Set<TableLock>();

/**
 * Holds ACCESS EXCLUSIVE locks on `tables` in an open transaction: every query of the app that
 * touches them waits inside PostgreSQL until `release()`. A real stuck dependency, no test hooks.
 */
export async function lockTables(databaseUrl: string, tables: readonly string[]): Promise<TableLock> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'cairn-process-test' });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`LOCK TABLE ${tables.join(', ')} IN ACCESS EXCLUSIVE MODE`);
  let released = false;
  const lock: TableLock = {
    async waiting(applicationName) {
      // Inside a transaction pg_stat_activity is a snapshot taken at first use; take a fresh one.
      await client.query('SELECT pg_stat_clear_snapshot()');
      const { rows } = await client.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND application_name = $1 AND wait_event_type = 'Lock'`,
        [applicationName],
      );
      return rows[0].n;
    },
    async waitForWaiting(applicationName, count, timeoutMs = 10_000) {
      let seen = -1;
      await eventually(
        async () => ((seen = await lock.waiting(applicationName)) === count ? true : undefined),
        timeoutMs,
        `${count} ${applicationName} queries waiting on the lock`,
      ).catch(async (error: Error) => {
        await client.query('SELECT pg_stat_clear_snapshot()');
        const { rows } = await client.query(
          `SELECT pid, state, wait_event_type, wait_event, left(query, 120) AS query FROM pg_stat_activity
            WHERE datname = current_database() AND application_name = $1`,
          [applicationName],
        );
        throw new Error(`${error.message} (last seen: ${seen})\n${JSON.stringify(rows, null, 1)}`);
      });
    },
    async release() {
      if (released) return;
      released = true;
      heldLocks.delete(lock);
      await client.query('ROLLBACK').catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
  heldLocks.add(lock);
  return lock;
}

/** Releases every lock a test still holds (afterEach). */
export async function releaseAllLocks(): Promise<void> {
  await Promise.all([...heldLocks].map((lock) => lock.release()));
}
