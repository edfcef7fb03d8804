import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PostgresInstall } from './deps';
import { isRoot, type Log, run, runOk, shQuote, tail, which } from './util';

export interface PostgresLayout {
  dataDir: string;
  socketDir: string;
  logFile: string;
}

export interface PostgresInstance {
  port: number;
  databaseUrl: string;
  /** True when the server was already running before this call. */
  reused: boolean;
  stop(): Promise<void>;
}

const DATABASE = 'cairn';
// Unix socket paths are limited to ~107 bytes; beyond that postgres refuses to start.
const MAX_SOCKET_PATH = 100;

interface Owner {
  uid: number;
  gid: number;
}

let cachedOwner: Owner | undefined;

/** PostgreSQL refuses to run as root, so as root everything server-side belongs to `postgres`. */
function serverOwner(): Owner | undefined {
  if (!isRoot()) return undefined;
  if (!cachedOwner) {
    try {
      const id = (flag: string) => Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }).trim());
      cachedOwner = { uid: id('-u'), gid: id('-g') };
    } catch {
      throw new Error('running as root, but there is no `postgres` system user to run PostgreSQL as');
    }
  }
  return cachedOwner;
}

function asServerUser(cmd: string, args: string[]): [string, string[]] {
  if (!serverOwner()) return [cmd, args];
  const runuser = ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find(existsSync) ?? which('runuser');
  if (runuser) return [runuser, ['-u', 'postgres', '--', cmd, ...args]];
  return ['su', ['postgres', '-s', '/bin/sh', '-c', [cmd, ...args].map(shQuote).join(' ')]];
}

function serverRun(cwd: string, cmd: string, args: string[]) {
  const [c, a] = asServerUser(cmd, args);
  // cwd matters: postgres tools stat their cwd, and root's may be unreadable to `postgres`.
  return run(c, a, { cwd, timeoutMs: 120_000 });
}

/** Creates a directory owned by whoever runs the server. */
export function makeServerDir(dir: string, mode: number): void {
  mkdirSync(dir, { recursive: true, mode });
  chmodSync(dir, mode);
  const owner = serverOwner();
  if (owner) chownSync(dir, owner.uid, owner.gid);
}

function writeServerFile(file: string, content: string, mode = 0o600): void {
  writeFileSync(file, content, { mode });
  const owner = serverOwner();
  if (owner) chownSync(file, owner.uid, owner.gid);
}

const confString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** Pid-file field 4 is the port the running postmaster listens on. */
export function runningPort(dataDir: string): number | undefined {
  try {
    const port = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[3]);
    return Number.isInteger(port) && port > 0 ? port : undefined;
  } catch {
    return undefined;
  }
}

export async function isRunning(pg: PostgresInstall, layout: PostgresLayout): Promise<boolean> {
  if (!existsSync(join(layout.dataDir, 'PG_VERSION'))) return false;
  const res = await serverRun(layout.dataDir, join(pg.binDir, 'pg_ctl'), ['status', '-D', layout.dataDir]);
  return res.code === 0;
}

async function initdb(pg: PostgresInstall, layout: PostgresLayout, ephemeral: boolean, log: Log): Promise<void> {
  const versionFile = join(layout.dataDir, 'PG_VERSION');
  if (existsSync(versionFile)) {
    const existing = readFileSync(versionFile, 'utf8').trim();
    if (existing !== String(pg.major)) {
      throw new Error(
        `${layout.dataDir} was created by PostgreSQL ${existing}, but PostgreSQL ${pg.major} is installed; ` +
          `delete that directory to start over (its data will be lost) or install PostgreSQL ${existing}`,
      );
    }
    return;
  }
  makeServerDir(layout.dataDir, 0o700);
  const check = await serverRun(layout.dataDir, 'test', ['-w', layout.dataDir]);
  if (check.code !== 0) {
    throw new Error(`the postgres user cannot reach ${layout.dataDir}; make its parent directories traversable (o+x)`);
  }
  log(`initdb ${layout.dataDir}`);
  const args = ['-D', layout.dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C'];
  if (ephemeral) args.push('--no-sync');
  const res = await serverRun(layout.dataDir, join(pg.binDir, 'initdb'), args);
  if (res.code !== 0) throw new Error(`initdb failed (exit ${res.code}):\n${res.stderr || res.stdout}`);
}

/**
 * Settings live in an included file rather than `pg_ctl -o`, because pg_ctl hands -o to
 * /bin/sh and the socket path is arbitrary; it also keeps a manual `pg_ctl start` consistent.
 */
function writeConfig(layout: PostgresLayout, port: number, ephemeral: boolean): void {
  const socketPath = join(layout.socketDir, `.s.PGSQL.${port}`);
  const settings: Record<string, string | number> = {
    port,
    listen_addresses: confString('127.0.0.1'),
    unix_socket_directories: confString(socketPath.length <= MAX_SOCKET_PATH ? layout.socketDir : ''),
    max_connections: 200,
  };
  if (ephemeral) Object.assign(settings, { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' });
  const body = Object.entries(settings).map(([k, v]) => `${k} = ${v}`);
  writeServerFile(join(layout.dataDir, 'cairn.conf'), `# Written by tools/local on every start.\n${body.join('\n')}\n`);
  const main = join(layout.dataDir, 'postgresql.conf');
  const include = "include_if_exists = 'cairn.conf'";
  const current = readFileSync(main, 'utf8');
  if (!current.includes(include)) writeFileSync(main, `${current.trimEnd()}\n${include}\n`);
}

async function psql(pg: PostgresInstall, port: number, db: string, sql: string): Promise<string> {
  const args = ['-X', '-q', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-h', '127.0.0.1', '-p', String(port)];
  return runOk(join(pg.binDir, 'psql'), [...args, '-U', 'postgres', '-d', db, '-c', sql], {
    env: { ...process.env, PGCONNECT_TIMEOUT: '10' },
    timeoutMs: 60_000,
  });
}

async function ensureDatabase(pg: PostgresInstall, port: number, log: Log): Promise<void> {
  const exists = await psql(pg, port, 'postgres', `SELECT 1 FROM pg_database WHERE datname = '${DATABASE}'`);
  if (exists.trim() !== '1') {
    log(`creating database ${DATABASE}`);
    await psql(pg, port, 'postgres', `CREATE DATABASE ${DATABASE}`);
  }
  try {
    await psql(pg, port, DATABASE, 'CREATE EXTENSION IF NOT EXISTS vector');
    await psql(pg, port, DATABASE, 'CREATE EXTENSION IF NOT EXISTS pg_trgm');
  } catch (err) {
    throw new Error(
      `pgvector did not load into PostgreSQL ${pg.major}; run \`sudo scripts/install-deps.sh\`.\n${(err as Error).message}`,
      { cause: err },
    );
  }
}

export interface StartPostgresOptions {
  layout: PostgresLayout;
  /** Port to use if the server is not already running. */
  port: number;
  ephemeral: boolean;
  log: Log;
}

/** Starts (or, for persistent layouts, reuses) a server and makes sure the cairn database has pgvector. */
export async function startPostgres(pg: PostgresInstall, opts: StartPostgresOptions): Promise<PostgresInstance> {
  const { layout, ephemeral, log } = opts;
  let port = opts.port;
  const reused = !ephemeral && (await isRunning(pg, layout));
  const stop = () => stopPostgres(pg, layout, ephemeral ? 'immediate' : 'fast');
  if (reused) {
    port = runningPort(layout.dataDir) ?? port;
    log(`reusing PostgreSQL already running from ${layout.dataDir} on port ${port}`);
  } else {
    await initdb(pg, layout, ephemeral, log);
    makeServerDir(layout.socketDir, 0o755);
    writeServerFile(layout.logFile, '', 0o640);
    writeConfig(layout, port, ephemeral);
    log(`starting PostgreSQL ${pg.major} on 127.0.0.1:${port}`);
    const args = ['start', '-w', '-t', '60', '-D', layout.dataDir, '-l', layout.logFile];
    const res = await serverRun(layout.dataDir, join(pg.binDir, 'pg_ctl'), args);
    if (res.code !== 0) {
      throw new Error(
        `PostgreSQL failed to start (pg_ctl exit ${res.code}): ${res.stderr.trim()}\n${tail(layout.logFile)}`,
      );
    }
  }
  try {
    await ensureDatabase(pg, port, log);
  } catch (err) {
    if (!reused) await stop().catch(() => undefined);
    throw err;
  }
  return { port, reused, databaseUrl: `postgresql://postgres@127.0.0.1:${port}/${DATABASE}`, stop };
}

export async function stopPostgres(
  pg: PostgresInstall,
  layout: PostgresLayout,
  mode: 'fast' | 'immediate',
): Promise<void> {
  if (!existsSync(join(layout.dataDir, 'postmaster.pid'))) return;
  const args = ['stop', '-w', '-t', '60', '-m', mode, '-D', layout.dataDir];
  const res = await serverRun(layout.dataDir, join(pg.binDir, 'pg_ctl'), args);
  // Exit 1 with "Is server running?" just means it was already gone.
  if (res.code !== 0 && existsSync(join(layout.dataDir, 'postmaster.pid'))) {
    throw new Error(`pg_ctl stop failed (exit ${res.code}): ${res.stderr.trim()}\n${tail(layout.logFile)}`);
  }
}

/** Last-resort synchronous shutdown for process 'exit' handlers, where nothing async runs. */
export function stopPostgresSync(pg: PostgresInstall, layout: PostgresLayout): void {
  if (!existsSync(join(layout.dataDir, 'postmaster.pid'))) return;
  const [cmd, args] = asServerUser(join(pg.binDir, 'pg_ctl'), ['stop', '-w', '-m', 'immediate', '-D', layout.dataDir]);
  try {
    execFileSync(cmd, args, { cwd: layout.dataDir, stdio: 'ignore', timeout: 30_000 });
  } catch {
    // Best effort: the process is exiting anyway.
  }
}
