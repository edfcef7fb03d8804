/**
 * The two servers under load run as child processes, so the load generator (and the
 * in-process baseline) never share their event loop: the built gateway exactly as
 * `npm run start:mcp-gateway` starts it, configured through its environment, and the echo
 * server. Both need `npm run build` first, which `npm run bench` does.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';

export interface ChildServer {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function script(root: string, path: string): string {
  const file = join(root, 'dist', path);
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build (npm run bench does)`);
  return file;
}

/** Keeps the last lines a child wrote to stderr, to say why it died. */
function watch(child: ChildProcess, name: string): { tail: () => string; exited: Promise<number | null> } {
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-2_000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then((code) => {
    if (code !== 0 && code !== null && tail) process.stderr.write(`[bench] ${name} exited ${code}: ${tail}\n`);
  });
  return { tail: () => tail, exited };
}

function stopper(child: ChildProcess, exited: Promise<number | null>): () => Promise<void> {
  return async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
}

export interface GatewayProcessOptions {
  readonly root: string;
  readonly env: Record<string, string>;
  /** Write a V8 CPU profile (`--cpu-prof`) of the gateway into this directory when it exits. */
  readonly cpuProfileDir?: string;
  /** More node options (e.g. `--heap-prof`, GC settings), before the script. */
  readonly nodeArgs?: readonly string[];
}

/** `node dist/apps/mcp-gateway/src/main.js` on a free loopback port; resolves once /readyz answers 200. */
export async function startGatewayProcess(options: GatewayProcessOptions): Promise<ChildServer> {
  const port = await freePort();
  const args: string[] = [...(options.nodeArgs ?? [])];
  if (options.cpuProfileDir) {
    mkdirSync(options.cpuProfileDir, { recursive: true });
    args.push('--cpu-prof', '--cpu-prof-dir', options.cpuProfileDir);
  }
  args.push(script(options.root, 'apps/mcp-gateway/src/main.js'));
  const child = spawn(process.execPath, args, {
    cwd: options.root,
    env: { PATH: process.env.PATH ?? '', ...options.env, HOST: '127.0.0.1', MCP_PORT: String(port) },
    // Its request logs go nowhere, as they would go to a log collector: written, not read.
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const { tail, exited } = watch(child, 'gateway');
  const url = `http://127.0.0.1:${port}`;
  await untilReady(child, 'gateway', url, tail);
  return { url, pid: child.pid ?? 0, stop: stopper(child, exited) };
}

/** The echo server (bench/gateway/echo-server.ts) on a free loopback port. */
export async function startEchoProcess(root: string): Promise<ChildServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [script(root, 'bench/gateway/echo-server.js'), String(port)], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', NODE_ENV: 'production' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { tail, exited } = watch(child, 'echo server');
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the echo server did not start: ${tail()}`)), 30_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString('utf8').includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => reject(new Error(`the echo server exited with ${code}: ${tail()}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, stop: stopper(child, exited) };
}

/**
 * `node dist/apps/worker/src/main.js` as the product runs it, a process of its own (its model
 * calls then never hold a measured app's event loop); resolves once its /readyz answers 200.
 */
export async function startWorkerProcess(root: string, env: Record<string, string>): Promise<ChildServer> {
  const port = await freePort();
  const child = spawn(process.execPath, [script(root, 'apps/worker/src/main.js')], {
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env, HOST: '127.0.0.1', WORKER_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const { tail, exited } = watch(child, 'worker');
  const url = `http://127.0.0.1:${port}`;
  await untilReady(child, 'worker', url, tail);
  return { url, pid: child.pid ?? 0, stop: stopper(child, exited) };
}

/** Polls `{url}/readyz` until it answers 200; a child that exits or is not ready within 60 s fails the run. */
async function untilReady(child: ChildProcess, name: string, url: string, tail: () => string): Promise<void> {
  const deadline = performance.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the ${name} exited with ${child.exitCode}: ${tail()}`);
    const ready = await fetch(`${url}/readyz`)
      .then((response) => response.status === 200)
      .catch(() => false);
    if (ready) return;
    if (performance.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the ${name} was not ready within 60 s: ${tail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
