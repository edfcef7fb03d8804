/**
 * Debian's HAProxy (scripts/install-deps.sh installs it) in front of the replicas: one frontend
 * for the api and one for the MCP gateway, each balancing over its replicas and health-checking
 * them on GET /readyz, plus a stats listener the harness reads to know which servers are UP.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const HAPROXY_BIN = '/usr/sbin/haproxy';

export interface Backend {
  /** Backend name in the config and in the stats. */
  readonly name: string;
  readonly frontendPort: number;
  readonly servers: readonly { name: string; port: number }[];
}

export interface HaproxyLayout {
  readonly backends: readonly Backend[];
  readonly statsPort: number;
  /** Health-check interval; a server is DOWN after 2 failed checks and UP after 2 good ones. */
  readonly checkIntervalMs: number;
}

/**
 * The configuration, with why for every choice that matters to a rolling restart:
 * - `option httpchk GET /readyz`: an app answers 503 there from the moment SIGTERM arrives and
 *   keeps serving for SHUTDOWN_DRAIN_MS, so the checks take it out before its listener closes.
 * - `retry-on conn-failure` + `option redispatch`: only a connection that could not be made is
 *   retried, on another server; the request was never sent, so even a POST is safe to resend.
 *   Nothing that reached a server (empty-response, response-timeout, 5xx) is retried: a
 *   `memory_store` that a dying replica may have committed must not be stored twice.
 * - No stickiness: the MCP endpoint is stateless (a fresh server per request), any replica answers.
 */
export function haproxyConfig(layout: HaproxyLayout): string {
  const inter = layout.checkIntervalMs;
  const lines = [
    'global',
    '  maxconn 4096',
    '',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-keep-alive 10s',
    // A check's own timeout is `inter` unless set: on a loaded machine a /readyz slower than
    // that would take a healthy replica out, and both at once leave no server at all.
    '  timeout check 3s',
    '  retries 3',
    '  retry-on conn-failure',
    '  option redispatch 1',
    '',
    `listen stats`,
    `  bind 127.0.0.1:${layout.statsPort}`,
    '  stats enable',
    '  stats uri /stats',
    '',
  ];
  for (const backend of layout.backends) {
    lines.push(
      `frontend ${backend.name}_in`,
      `  bind 127.0.0.1:${backend.frontendPort}`,
      `  default_backend ${backend.name}`,
      '',
      `backend ${backend.name}`,
      '  balance roundrobin',
      '  option httpchk GET /readyz',
      '  http-check expect status 200',
      `  default-server inter ${inter} fastinter ${inter} downinter ${inter} rise 2 fall 2`,
      ...backend.servers.map((server) => `  server ${server.name} 127.0.0.1:${server.port} check`),
      '',
    );
  }
  return lines.join('\n');
}

export interface RunningHaproxy {
  readonly configFile: string;
  /** UP/DOWN/MAINT… of every server of `backend`, by server name, from the stats CSV. */
  serverStates(backend: string): Promise<Map<string, { status: string; sessions: number }>>;
  stop(): Promise<void>;
}

/** Writes the config under `dir`, checks it with `haproxy -c`, and runs haproxy in the foreground (-db). */
export async function startHaproxy(dir: string, layout: HaproxyLayout): Promise<RunningHaproxy> {
  if (!existsSync(HAPROXY_BIN)) {
    throw new Error(`${HAPROXY_BIN} is missing: install Debian's haproxy (scripts/install-deps.sh does)`);
  }
  const configFile = join(dir, 'haproxy.cfg');
  writeFileSync(configFile, haproxyConfig(layout));
  await run(HAPROXY_BIN, ['-c', '-q', '-f', configFile]);
  const child = spawn(HAPROXY_BIN, ['-db', '-f', configFile], { stdio: ['ignore', 'ignore', 'pipe'] });
  let tail = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    tail = (tail + chunk.toString('utf8')).slice(-4_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const statsUrl = `http://127.0.0.1:${layout.statsPort}/stats;csv`;
  const serverStates = async (backend: string) => {
    const csv = await (await fetch(statsUrl)).text();
    const [header, ...rows] = csv.split('\n');
    const columns = (header ?? '').replace(/^# /, '').split(',');
    const at = (name: string) => columns.indexOf(name);
    const states = new Map<string, { status: string; sessions: number }>();
    for (const row of rows) {
      const cells = row.split(',');
      if (cells[at('pxname')] !== backend || ['FRONTEND', 'BACKEND'].includes(cells[at('svname')] ?? '')) continue;
      states.set(cells[at('svname')] ?? '', {
        status: cells[at('status')] ?? '',
        sessions: Number(cells[at('scur')] ?? 0),
      });
    }
    return states;
  };
  await waitFor(
    async () =>
      (await fetch(statsUrl)
        .then((r) => r.ok)
        .catch(() => false)) || child.exitCode !== null,
  );
  if (child.exitCode !== null) throw new Error(`haproxy exited with ${child.exitCode}: ${tail}`);
  return {
    configFile,
    serverStates,
    stop: async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Polls until `done` is true (every 100 ms, at most `timeoutMs`). */
export async function waitFor(done: () => Promise<boolean>, timeoutMs = 60_000, what = 'a condition'): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await done())) {
    if (performance.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Until haproxy sees `server` of `backend` exactly `status` (not "UP 1/2", which is going down). */
export function untilServer(haproxy: RunningHaproxy, backend: string, server: string, status: 'UP' | 'DOWN') {
  return waitFor(
    async () => (await haproxy.serverStates(backend)).get(server)?.status === status,
    60_000,
    `haproxy to see ${backend}/${server} ${status}`,
  );
}

function run(command: string, args: readonly string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited ${code}: ${output}`)),
    );
  });
}
