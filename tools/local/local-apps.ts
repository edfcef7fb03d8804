import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { isPortFree, isSameProcess, processStartTicks, sleep } from './util';

/** The three apps `npm start` runs, the variable naming each one's port, and its default. */
export const APPS = [
  { name: 'api', entry: 'dist/apps/api/src/main.js', portVar: 'API_PORT', port: 8080 },
  { name: 'mcp-gateway', entry: 'dist/apps/mcp-gateway/src/main.js', portVar: 'MCP_PORT', port: 8081 },
  { name: 'worker', entry: 'dist/apps/worker/src/main.js', portVar: 'WORKER_PORT', port: 8082 },
] as const;
export type LocalApp = (typeof APPS)[number];

export interface AppPorts {
  readonly api: number;
  readonly mcp: number;
  readonly worker: number;
}

export function appPorts(env: NodeJS.ProcessEnv): AppPorts {
  const port = (app: LocalApp) => Number(env[app.portVar] ?? app.port);
  return { api: port(APPS[0]), mcp: port(APPS[1]), worker: port(APPS[2]) };
}

function portOf(ports: AppPorts, app: LocalApp): number {
  return app.name === 'api' ? ports.api : app.name === 'mcp-gateway' ? ports.mcp : ports.worker;
}

/**
 * The ports already taken on `host`, each as a sentence naming its variable: checked before
 * anything starts, so that an app does not boot only to die with EADDRINUSE (and the stack on
 * that port, another clone's perhaps, is never mistaken for this one's).
 */
export async function takenPorts(ports: AppPorts, host: string): Promise<string[]> {
  const taken: string[] = [];
  for (const app of APPS) {
    const port = portOf(ports, app);
    if (!(await isPortFree(port, host))) {
      taken.push(`port ${port} (${app.portVar}, for ${app.name}) is already in use on ${host}`);
    }
  }
  return taken;
}

export interface RunningApp {
  readonly name: string;
  readonly port: number;
  readonly child: ChildProcess;
}

/**
 * Spawns the three apps. Each gets the launcher's output streams and an IPC channel that only
 * exit-with-launcher.js (preloaded) uses, to stop the app should the launcher die.
 */
export function spawnApps(root: string, env: NodeJS.ProcessEnv, ports: AppPorts): RunningApp[] {
  const preload = join(__dirname, 'exit-with-launcher.js');
  return APPS.map((app) => ({
    name: app.name,
    port: portOf(ports, app),
    child: spawn(process.execPath, ['--require', preload, app.entry], {
      cwd: root,
      // One instance of each on this machine: no load balancer to drain away from, so Ctrl-C
      // and `npm stop` close at once unless SHUTDOWN_DRAIN_MS says otherwise.
      env: { SHUTDOWN_DRAIN_MS: '0', ...env, [app.portVar]: String(portOf(ports, app)) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    }),
  }));
}

export const alive = (child: ChildProcess): boolean => child.exitCode === null && child.signalCode === null;

/** Resolves with the exit code once the process has exited (1 when a signal ended it). */
export function exitOf(child: ChildProcess): Promise<number> {
  if (!alive(child)) return Promise.resolve(child.exitCode ?? 1);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

/** Polls `/readyz` until it answers 200, the deadline passes or `stillWaiting` turns false. */
export async function waitReady(port: number, deadline: number, stillWaiting: () => boolean): Promise<boolean> {
  while (Date.now() < deadline && stillWaiting()) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.ok) return true;
    } catch {
      // not listening yet
    }
    await sleep(500);
  }
  return false;
}

/** An app a launcher spawned, as its record keeps it. */
export interface RecordedApp {
  readonly name: string;
  readonly pid: number;
  readonly startTicks: string | undefined;
}

export function recordApps(apps: readonly RunningApp[]): RecordedApp[] {
  return apps.flatMap(({ name, child }) =>
    child.pid === undefined ? [] : [{ name, pid: child.pid, startTicks: processStartTicks(child.pid) }],
  );
}

/**
 * Stops apps a dead launcher left running (they normally stop themselves when it dies): SIGTERM,
 * the drain deadline, then SIGKILL. Only the very processes it recorded, never a reused pid.
 */
export async function stopLeftoverApps(apps: readonly RecordedApp[], drainMs: number): Promise<string[]> {
  const left = apps.filter((app) => isSameProcess(app.pid, app.startTicks));
  for (const app of left) process.kill(app.pid, 'SIGTERM');
  const deadline = Date.now() + drainMs;
  while (left.some((app) => isSameProcess(app.pid, app.startTicks)) && Date.now() < deadline) await sleep(100);
  for (const app of left) if (isSameProcess(app.pid, app.startTicks)) process.kill(app.pid, 'SIGKILL');
  return left.map((app) => `${app.name} (pid ${app.pid})`);
}
