import { existsSync, mkdirSync, readFileSync, realpathSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { isAlive, type Log, runOk, sleep, tail } from './util';

export interface RedisInstance {
  port: number;
  redisUrl: string;
  /** True when the server was already running before this call. */
  reused: boolean;
  stop(): Promise<void>;
}

/** Parses one RESP reply; returns undefined while the buffer is still incomplete. */
function parseReply(buf: string, pos = 0): { value: unknown; end: number } | undefined {
  const eol = buf.indexOf('\r\n', pos);
  if (eol < 0) return undefined;
  const type = buf[pos];
  const head = buf.slice(pos + 1, eol);
  if (type === '+' || type === ':') return { value: head, end: eol + 2 };
  if (type === '-') return { value: new Error(head), end: eol + 2 };
  if (type === '$') {
    const len = Number(head);
    if (len < 0) return { value: null, end: eol + 2 };
    if (buf.length < eol + 2 + len + 2) return undefined;
    return { value: buf.slice(eol + 2, eol + 2 + len), end: eol + 2 + len + 2 };
  }
  if (type === '*') {
    const items: unknown[] = [];
    let end = eol + 2;
    for (let i = 0; i < Number(head); i++) {
      const item = parseReply(buf, end);
      if (!item) return undefined;
      items.push(item.value);
      end = item.end;
    }
    return { value: items, end };
  }
  return { value: new Error(`unexpected reply: ${JSON.stringify(buf.slice(0, 80))}`), end: buf.length };
}

/** One command over a fresh connection; ioredis would retry and log, which we do not want while probing. */
export function redisCommand(port: number, args: string[], timeoutMs = 2_000): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port });
    let buf = '';
    const done = (fn: () => void) => {
      socket.destroy();
      fn();
    };
    socket.setTimeout(timeoutMs, () => done(() => reject(new Error(`redis on port ${port}: timed out`))));
    socket.once('error', (err) => done(() => reject(err)));
    // SHUTDOWN never replies; the server closing the connection is the answer.
    socket.once('close', () => resolve(undefined));
    socket.on('data', (chunk) => {
      buf += chunk.toString('utf8');
      const reply = parseReply(buf);
      if (reply) done(() => (reply.value instanceof Error ? reject(reply.value) : resolve(reply.value)));
    });
    socket.write(`*${args.length}\r\n${args.map((a) => `$${Buffer.byteLength(a)}\r\n${a}\r\n`).join('')}`);
  });
}

async function ping(port: number): Promise<boolean> {
  try {
    return (await redisCommand(port, ['PING'], 1_000)) === 'PONG';
  } catch {
    return false;
  }
}

/** True when a Redis answering on `port` is the one whose working directory is `dir`. */
export async function isOurRedis(port: number, dir: string): Promise<boolean> {
  if (!(await ping(port))) return false;
  try {
    const reply = await redisCommand(port, ['CONFIG', 'GET', 'dir']);
    return Array.isArray(reply) && existsSync(dir) && reply[1] === realpathSync(dir);
  } catch {
    return false;
  }
}

function readPid(pidFile: string): number | undefined {
  try {
    const pid = Number(readFileSync(pidFile, 'utf8').trim());
    return pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

export interface StartRedisOptions {
  dir: string;
  port: number;
  ephemeral: boolean;
  log: Log;
}

export async function startRedis(redisServer: string, opts: StartRedisOptions): Promise<RedisInstance> {
  const { dir, port, ephemeral, log } = opts;
  const pidFile = join(dir, 'redis.pid');
  const logFile = join(dir, 'redis.log');
  const instance = (reused: boolean): RedisInstance => ({
    port,
    reused,
    redisUrl: `redis://127.0.0.1:${port}`,
    stop: () => stopRedis(port, pidFile, ephemeral),
  });

  if (!ephemeral && (await isOurRedis(port, dir))) {
    log(`reusing Redis already running from ${dir} on port ${port}`);
    return instance(true);
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const persistence = ephemeral
    ? ['--save', '', '--appendonly', 'no']
    : ['--appendonly', 'yes', '--maxmemory-policy', 'noeviction'];
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--daemonize', 'yes'];
  args.push('--pidfile', pidFile, '--logfile', logFile, '--dir', dir, ...persistence);
  log(`starting Redis on 127.0.0.1:${port}`);
  try {
    await runOk(redisServer, args, { cwd: dir, timeoutMs: 30_000 });
  } catch (err) {
    throw new Error(`Redis failed to start: ${(err as Error).message}\n${tail(logFile)}`, { cause: err });
  }
  // daemonize returns before the listener is up, and bind errors only reach the log file.
  const deadline = Date.now() + 15_000;
  while (!(await ping(port))) {
    const pid = readPid(pidFile);
    if (Date.now() > deadline || (pid !== undefined && !isAlive(pid))) {
      await stopRedis(port, pidFile, ephemeral);
      throw new Error(`Redis did not answer PING on port ${port}\n${tail(logFile)}`);
    }
    await sleep(25);
  }
  return instance(false);
}

export async function stopRedis(port: number, pidFile: string, ephemeral: boolean): Promise<void> {
  const pid = readPid(pidFile);
  try {
    await redisCommand(port, ephemeral ? ['SHUTDOWN', 'NOSAVE'] : ['SHUTDOWN'], 10_000);
  } catch {
    // Not answering: fall through to signals if the pid is still alive.
  }
  if (pid === undefined) return;
  for (const [signal, graceMs] of [
    ['SIGTERM', 10_000],
    ['SIGKILL', 5_000],
  ] as const) {
    const deadline = Date.now() + graceMs;
    while (isRedisProcess(pid) && Date.now() < deadline) await sleep(25);
    if (!isRedisProcess(pid)) return;
    process.kill(pid, signal);
  }
}

/** For process 'exit' handlers, where nothing async runs. */
export function killRedisSync(pidFile: string): void {
  const pid = readPid(pidFile);
  if (pid !== undefined && isRedisProcess(pid)) process.kill(pid, 'SIGKILL');
}

/** Guards against signalling an unrelated process that inherited a stale pid. */
function isRedisProcess(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('redis');
  } catch {
    return !existsSync('/proc');
  }
}
