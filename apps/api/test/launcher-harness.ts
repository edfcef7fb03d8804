import { type ChildProcess, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { childEnvironment, freePort, REPO_ROOT } from './process-harness';

/**
 * `npm start` as a user runs it, on ports of its own and with its state (PostgreSQL and Redis
 * data, secrets, the launcher's record) in a temporary `.cairn/`: never the clone's, which a
 * developer's own `npm start` may be using.
 */

export const LAUNCHER = 'dist/tools/local/start.js';
/** What the launcher prints last once every app is ready. */
export const READY_LINE = 'stop with Ctrl-C or `npm stop`';

export interface StackPorts {
  readonly api: number;
  readonly mcp: number;
  readonly worker: number;
  readonly postgres: number;
  readonly redis: number;
}

/** A process whose output (stdout and stderr, interleaved) is collected as it arrives. */
export class Captured {
  output = '';
  exitStatus: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;

  constructor(
    readonly label: string,
    command: string,
    args: readonly string[],
    options: { cwd: string; env: Record<string, string>; detached?: boolean },
  ) {
    this.child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    const collect = (chunk: Buffer) => (this.output += chunk.toString('utf8'));
    this.child.stdout!.on('data', collect);
    this.child.stderr!.on('data', collect);
    this.exited = new Promise((resolve) => {
      this.child.once('close', (code, signal) => {
        this.exitStatus = { code, signal };
        resolve(this.exitStatus);
      });
    });
  }

  get pid(): number {
    return this.child.pid!;
  }

  get alive(): boolean {
    return this.exitStatus === undefined;
  }

  signal(signal: NodeJS.Signals): void {
    if (this.alive) this.child.kill(signal);
  }

  /** As a terminal's Ctrl-C does: the signal to the whole process group (spawned `detached`). */
  signalGroup(signal: NodeJS.Signals): void {
    process.kill(-this.pid, signal);
  }

  /** Resolves once the output holds `text`; rejects, with the output, on exit or timeout. */
  async waitFor(text: string, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.output.includes(text)) {
      if (!this.alive)
        throw new Error(`${this.label} exited (${JSON.stringify(this.exitStatus)}) before "${text}"\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`${this.label}: no "${text}" within ${timeoutMs} ms\n${this.output}`);
      await new Promise((wake) => setTimeout(wake, 100));
    }
  }

  async waitForExit(timeoutMs: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    const timer = new Promise<never>((_, reject) =>
      setTimeout(
        () => reject(new Error(`${this.label}: still running after ${timeoutMs} ms\n${this.output}`)),
        timeoutMs,
      ).unref(),
    );
    return Promise.race([this.exited, timer]);
  }
}

/** Whether anything accepts connections on 127.0.0.1:port. */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.setTimeout(2_000, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export interface LauncherRecordView {
  readonly pid: number;
  readonly apps: readonly { readonly name: string; readonly pid: number }[];
}

/** One stack's home: `<home>/.cairn` as its state dir, its ports, and how to run its commands. */
export class LocalStack {
  readonly stateDir: string;
  private readonly started: Captured[] = [];

  private constructor(
    readonly home: string,
    readonly ports: StackPorts,
  ) {
    this.stateDir = join(home, '.cairn');
  }

  /** Ports of its own; PostgreSQL's and Redis' are recorded where `npm start` looks for them first. */
  static async create(): Promise<LocalStack> {
    const home = mkdtempSync(join(tmpdir(), 'cairn-launcher-'));
    // As root, PostgreSQL runs as `postgres`, which must reach its data dir under this one.
    chmodSync(home, 0o755);
    const ports: StackPorts = {
      api: await freePort(),
      mcp: await freePort(),
      worker: await freePort(),
      postgres: await freePort(),
      redis: await freePort(),
    };
    const stack = new LocalStack(home, ports);
    mkdirSync(stack.stateDir, { mode: 0o755 });
    writeFileSync(join(stack.stateDir, 'ports.json'), JSON.stringify({ postgres: ports.postgres, redis: ports.redis }));
    return stack;
  }

  /** The whole environment of the stack's commands (nothing inherited from the test runner). */
  env(overrides: Record<string, string | undefined> = {}): Record<string, string> {
    return childEnvironment({
      CAIRN_STATE_DIR: this.stateDir,
      API_PORT: String(this.ports.api),
      MCP_PORT: String(this.ports.mcp),
      WORKER_PORT: String(this.ports.worker),
      // The built-in embedder: three apps with the local model would need 600 MB more.
      EMBEDDING_PROVIDER: 'hash',
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      ...overrides,
    });
  }

  /** `node dist/tools/local/start.js`: what `npm start` execs once it has built. */
  launch(label: string, overrides: Record<string, string | undefined> = {}, node = process.execPath): Captured {
    return this.track(new Captured(label, node, [LAUNCHER], { cwd: REPO_ROOT, env: this.env(overrides) }));
  }

  /**
   * `npm start` through the real npm, with the repository's start script minus its build step
   * (building here would rewrite dist/ under the other suites), in a package of its own.
   */
  launchViaNpm(label: string, startScript: string): Captured {
    const dir = join(this.home, 'npm-start');
    mkdirSync(dir, { recursive: true });
    const script = startScript.replace('npm run -s build && ', '').replace(' dist/', ` ${REPO_ROOT}/dist/`);
    writeFileSync(
      join(dir, 'package.json'),
      JSON.stringify({ name: 'npm-start', private: true, scripts: { start: script } }),
    );
    // Its own process group, as a terminal gives a foreground job: Ctrl-C reaches all of it.
    return this.track(new Captured(label, 'npm', ['start'], { cwd: dir, env: this.env(), detached: true }));
  }

  /** `npm stop` / `npm run status` as package.json defines them, from the repository root. */
  async npm(args: readonly string[], timeoutMs = 150_000): Promise<{ code: number | null; output: string }> {
    const run = new Captured(`npm ${args.join(' ')}`, 'npm', args, { cwd: REPO_ROOT, env: this.env() });
    const { code } = await run.waitForExit(timeoutMs);
    return { code, output: run.output };
  }

  record(): LauncherRecordView | undefined {
    const file = join(this.stateDir, 'launcher.json');
    return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LauncherRecordView) : undefined;
  }

  adminToken(): string {
    return (JSON.parse(readFileSync(join(this.stateDir, 'secrets.json'), 'utf8')) as { adminToken: string }).adminToken;
  }

  /** Nothing of the stack runs: no launcher record, no app, no PostgreSQL, no Redis. */
  async running(apps: readonly { pid: number }[] = []): Promise<string[]> {
    const left: string[] = [];
    for (const [name, port] of Object.entries(this.ports)) if (await listening(port)) left.push(`${name} :${port}`);
    for (const app of apps) if (processAlive(app.pid)) left.push(`pid ${app.pid}`);
    if (existsSync(join(this.stateDir, 'launcher.json'))) left.push('launcher.json');
    if (existsSync(join(this.stateDir, 'postgres', 'postmaster.pid'))) left.push('postmaster.pid');
    return left;
  }

  /** Polls until nothing of the stack runs; resolves with what is left when time is up. */
  async untilStopped(apps: readonly { pid: number }[], timeoutMs: number): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    let left = await this.running(apps);
    while (left.length > 0 && Date.now() < deadline) {
      await new Promise((wake) => setTimeout(wake, 250));
      left = await this.running(apps);
    }
    return left;
  }

  /** Kills what a failed test left running (by pid), stops the services, removes the home. */
  async remove(): Promise<void> {
    for (const run of this.started) if (run.alive) run.signal('SIGKILL');
    await Promise.all(this.started.map((run) => run.exited));
    for (const app of this.record()?.apps ?? []) if (processAlive(app.pid)) process.kill(app.pid, 'SIGKILL');
    await this.npm(['stop']);
    rmSync(this.home, { recursive: true, force: true });
  }

  private track(run: Captured): Captured {
    this.started.push(run);
    return run;
  }
}
