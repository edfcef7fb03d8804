/**
 * The built apps (dist/, from `npm run -s build`) as replicas: each on a fixed loopback port
 * that haproxy.cfg names, so a replica restarted on its port is the same server to HAProxy.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

export type ReplicaApp = 'api' | 'mcp-gateway' | 'worker';

const ENTRY: Record<ReplicaApp, string> = {
  api: 'apps/api/src/main.js',
  'mcp-gateway': 'apps/mcp-gateway/src/main.js',
  worker: 'apps/worker/src/main.js',
};
const PORT_VARIABLE: Record<ReplicaApp, string> = { api: 'API_PORT', 'mcp-gateway': 'MCP_PORT', worker: 'WORKER_PORT' };

const START_TIMEOUT_MS = 240_000;

/** One replica: its process comes and goes, its name and port stay. */
export class Replica {
  private child: ChildProcess | undefined;
  private exited: Promise<number | null> = Promise.resolve(null);
  private tail = '';

  constructor(
    readonly app: ReplicaApp,
    /** Server name in haproxy.cfg, e.g. `gateway1`. */
    readonly name: string,
    readonly port: number,
    private readonly root: string,
    private env: Record<string, string>,
  ) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  /** The running process's pid (to read its memory from /proc), if any. */
  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  get running(): boolean {
    return this.child !== undefined && this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Changes settings for the next start (e.g. a lower rate limit). */
  reconfigure(env: Record<string, string>): void {
    this.env = { ...this.env, ...env };
  }

  /** Spawns the app and resolves once its /readyz answers 200. */
  async start(): Promise<void> {
    const script = join(this.root, 'dist', ENTRY[this.app]);
    if (!existsSync(script)) throw new Error(`${script} is missing: run npm run -s build first`);
    this.tail = '';
    const child = spawn(process.execPath, [script], {
      cwd: this.root,
      env: {
        PATH: process.env.PATH ?? '',
        ...this.env,
        HOST: '127.0.0.1',
        [PORT_VARIABLE[this.app]]: String(this.port),
      },
      // Request logs go nowhere, as they would go to a log collector; stderr says why a start failed.
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      this.tail = (this.tail + chunk.toString('utf8')).slice(-2_000);
    });
    this.child = child;
    this.exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    // A liveness bound, not a timing: on a machine shared with other work a start can take a minute.
    const deadline = performance.now() + START_TIMEOUT_MS;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${this.name} exited with ${child.exitCode}: ${this.tail}`);
      const last = await fetch(`${this.url}/readyz`, { signal: AbortSignal.timeout(5_000) })
        .then(async (response) => `${response.status} ${(await response.text()).slice(0, 300)}`)
        .catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
      if (last.startsWith('200 ')) return;
      if (performance.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`${this.name} was not ready within ${START_TIMEOUT_MS / 1000} s (last: ${last}): ${this.tail}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** SIGTERM and wait for the exit (drain included); resolves with the exit code. */
  async stop(): Promise<number | null> {
    if (!this.running) return this.child?.exitCode ?? null;
    this.child?.kill('SIGTERM');
    return this.exited;
  }

  /** kill -9: no drain, no goodbye; in-flight requests die with it. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child?.kill('SIGKILL');
    await this.exited;
  }
}
