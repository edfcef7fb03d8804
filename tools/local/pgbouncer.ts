/**
 * A throwaway PgBouncer in transaction pooling mode in front of a PostgreSQL, for the tests and
 * benchmarks that run Cairn behind a pooler (CAIRN_TEST_PGBOUNCER=1, `npm run bench -- --pgbouncer`).
 * Debian's package (/usr/sbin/pgbouncer, 1.18 on Debian 12), run from a temp dir on a free port.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MissingDependenciesError } from './deps';
import { freePort, isRoot, type Log, silent, sleep, tail } from './util';

export const PGBOUNCER_BINARY = '/usr/sbin/pgbouncer';

export interface PgbouncerInstance {
  readonly port: number;
  /** `url` (a URL of the PostgreSQL behind it) with its host and port swapped for the pooler's. */
  through(url: string): string;
  stop(): Promise<void>;
  /** For process 'exit' handlers, where nothing async runs. */
  stopSync(): void;
}

/** Says what is missing and how to install it, rather than failing on a spawn error. */
export function requirePgbouncer(binary = PGBOUNCER_BINARY): string {
  if (!existsSync(binary)) {
    throw new MissingDependenciesError(
      `running behind PgBouncer (CAIRN_TEST_PGBOUNCER=1, bench --pgbouncer) needs ${binary}, which is missing: ` +
        "install Debian/Ubuntu's package with `sudo scripts/install-deps.sh` (or `apt-get install -y pgbouncer`)",
    );
  }
  return binary;
}

/**
 * The settings an operator's pgbouncer.ini needs for Cairn in transaction mode (README, "Behind
 * PgBouncer"), plus the test-only ones: trust auth on loopback like the throwaway cluster, and a
 * wildcard database entry because every test file clones a database of its own.
 */
function config(dir: string, port: number, backend: URL): string {
  const user = decodeURIComponent(backend.username || 'postgres');
  return [
    '[databases]',
    `* = host=${backend.hostname} port=${backend.port || '5432'}`,
    '',
    '[pgbouncer]',
    'listen_addr = 127.0.0.1',
    `listen_port = ${port}`,
    'unix_socket_dir =',
    'pool_mode = transaction',
    'auth_type = trust',
    `auth_file = ${join(dir, 'userlist.txt')}`,
    `admin_users = ${user}`,
    'max_client_conn = 2000',
    'default_pool_size = 20',
    // Dropped test databases leave pools behind; let them go rather than pile up.
    'autodb_idle_timeout = 30',
    `logfile = ${join(dir, 'pgbouncer.log')}`,
    `pidfile = ${join(dir, 'pgbouncer.pid')}`,
    // PgBouncer refuses to run as root; it switches to this user after reading its files.
    ...(isRoot() ? ['user = postgres'] : []),
    '',
  ].join('\n');
}

function accepting(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts pgbouncer in front of the PostgreSQL `backendUrl` names; resolves once it accepts connections. */
export async function startPgbouncer(backendUrl: string, log: Log = silent): Promise<PgbouncerInstance> {
  const binary = requirePgbouncer();
  const backend = new URL(backendUrl);
  const dir = mkdtempSync(join(tmpdir(), 'cairn-pgbouncer-'));
  const port = await freePort();
  const user = decodeURIComponent(backend.username || 'postgres');
  writeFileSync(join(dir, 'userlist.txt'), `"${user}" ""\n`, { mode: 0o600 });
  writeFileSync(join(dir, 'pgbouncer.ini'), config(dir, port, backend), { mode: 0o600 });
  if (isRoot()) {
    const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
    for (const file of ['', 'userlist.txt', 'pgbouncer.ini']) chownSync(join(dir, file), id('-u'), id('-g'));
  }
  const child: ChildProcess = spawn(binary, [join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => (exited = true));
  const deadline = Date.now() + 15_000;
  while (!(await accepting(port))) {
    if (exited || Date.now() > deadline) {
      child.kill('SIGKILL');
      const why = tail(join(dir, 'pgbouncer.log'));
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`pgbouncer did not start on 127.0.0.1:${port}:\n${why}`);
    }
    await sleep(50);
  }
  log(`pgbouncer (transaction pooling) on 127.0.0.1:${port} in front of ${backend.host}`);
  const stopSync = () => {
    if (!exited) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  };
  return {
    port,
    through(url: string) {
      const parsed = new URL(url);
      parsed.hostname = '127.0.0.1';
      parsed.port = String(port);
      return parsed.toString();
    },
    async stop() {
      if (!exited) {
        let timer: NodeJS.Timeout | undefined;
        const gone = new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          // A pending timer would hold the caller's event loop (jest's) open after the exit.
          timer = setTimeout(resolve, 5_000);
        });
        // SIGTERM closes at once (SIGINT would wait for clients to finish).
        child.kill('SIGTERM');
        await gone;
        clearTimeout(timer);
      }
      stopSync();
    },
    stopSync,
  };
}
