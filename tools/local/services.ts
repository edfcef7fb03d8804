/**
 * Local PostgreSQL (with pgvector) and Redis for `npm start` and `npm test`, run straight
 * from the system binaries so no container runtime is needed.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { findInstalledPostgres, MissingDependenciesError, resolveSystemDependencies } from './deps';
import {
  isRunning,
  makeServerDir,
  type PostgresInstance,
  type PostgresLayout,
  runningPort,
  startPostgres,
  stopPostgres,
  stopPostgresSync,
} from './postgres';
import { isOurRedis, killRedisSync, type RedisInstance, startRedis, stopRedis } from './redis';
import { choosePort, freePort, type Log, silent } from './util';

export { MissingDependenciesError };

export interface LocalServices {
  databaseUrl: string;
  redisUrl: string;
  /** Set for the persistent ones of `npm start`. */
  ports?: { postgres: number; redis: number };
  stop(): Promise<void>;
}

const DEFAULT_PG_PORT = 54329;
const DEFAULT_REDIS_PORT = 63799;

/**
 * Checks for postgres (>=15) binaries, pgvector's vector.control for that major, and redis-server.
 * If something is missing: when root or `sudo -n true` works, runs scripts/install-deps.sh
 * (output streamed to stderr); otherwise throws MissingDependenciesError saying what is missing
 * and how to install it.
 */
export async function ensureSystemDependencies(log: Log = silent): Promise<void> {
  await resolveSystemDependencies(log);
}

/**
 * Starts both in parallel. If either fails, stops the other unless it was already running
 * before (a persistent server someone else may be using), then runs `cleanup`.
 */
async function startBoth(
  pg: () => Promise<PostgresInstance>,
  redis: () => Promise<RedisInstance>,
  cleanup: () => Promise<void>,
): Promise<[PostgresInstance, RedisInstance]> {
  const [p, r] = await Promise.allSettled([pg(), redis()]);
  if (p.status === 'fulfilled' && r.status === 'fulfilled') return [p.value, r.value];
  for (const s of [p, r]) {
    if (s.status === 'fulfilled' && !s.value.reused) await s.value.stop().catch(() => undefined);
  }
  await cleanup().catch(() => undefined);
  const reasons = [p, r].flatMap((s) => (s.status === 'rejected' ? [s.reason as Error] : []));
  if (reasons.length === 1) throw reasons[0];
  throw new Error(reasons.map((e) => e.message).join('\n\n'));
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let pending: Promise<void> | undefined;
  return () => (pending ??= fn());
}

// A test runner that exits without calling stop() must not leave servers behind; only
// synchronous work is possible in an 'exit' handler, hence the separate sync path.
const exitCleanups = new Set<() => void>();
let exitHookInstalled = false;
function onProcessExit(cleanup: () => void): () => void {
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once('exit', () => exitCleanups.forEach((c) => c()));
  }
  exitCleanups.add(cleanup);
  return () => exitCleanups.delete(cleanup);
}

/** Where a throwaway PostgreSQL under `base` keeps its data, socket and log. */
function throwawayPostgresLayout(base: string): PostgresLayout {
  return { dataDir: join(base, 'pg'), socketDir: join(base, 'run'), logFile: join(base, 'postgres.log') };
}

/**
 * Throwaway instances for tests: one temp dir under os.tmpdir(), OS-chosen ports, durability
 * off, trust auth on 127.0.0.1 only, Redis without persistence. stop() removes everything.
 */
export async function startEphemeralServices(log: Log = silent): Promise<LocalServices> {
  const deps = await resolveSystemDependencies(log);
  const base = mkdtempSync(join(tmpdir(), 'cairn-services-'));
  // As root this hands the whole dir to `postgres`; root can still write Redis' files into it.
  makeServerDir(base, 0o700);
  const layout = throwawayPostgresLayout(base);
  const redisDir = join(base, 'redis');
  const redisPidFile = join(redisDir, 'redis.pid');

  const pgPort = await freePort();
  let redisPort = await freePort();
  while (redisPort === pgPort) redisPort = await freePort();

  const teardown = async () => {
    await Promise.allSettled([
      stopPostgres(deps.postgres, layout, 'immediate'),
      stopRedis(redisPort, redisPidFile, true),
    ]);
    rmSync(base, { recursive: true, force: true });
  };
  const removeExitHook = onProcessExit(() => {
    stopPostgresSync(deps.postgres, layout);
    killRedisSync(redisPidFile);
    rmSync(base, { recursive: true, force: true });
  });

  const started = Date.now();
  let pg: PostgresInstance;
  let redis: RedisInstance;
  try {
    [pg, redis] = await startBoth(
      () => startPostgres(deps.postgres, { layout, port: pgPort, ephemeral: true, log }),
      () => startRedis(deps.redisServer, { dir: redisDir, port: redisPort, ephemeral: true, log }),
      teardown,
    );
  } catch (err) {
    removeExitHook();
    throw err;
  }
  log(`ephemeral services up in ${Date.now() - started} ms (${base})`);
  return {
    databaseUrl: pg.databaseUrl,
    redisUrl: redis.redisUrl,
    stop: once(async () => {
      await teardown();
      removeExitHook();
    }),
  };
}

/**
 * One more throwaway PostgreSQL (with pgvector), for tests that need a second cluster (tenant
 * placement, docs/scaling.md): like startEphemeralServices' server, on its own free port and temp
 * dir, with no Redis. stop() removes everything.
 */
export async function startEphemeralPostgres(
  log: Log = silent,
): Promise<{ databaseUrl: string; stop(): Promise<void> }> {
  const deps = await resolveSystemDependencies(log);
  const base = mkdtempSync(join(tmpdir(), 'cairn-pg-'));
  makeServerDir(base, 0o700);
  const layout = throwawayPostgresLayout(base);
  const teardown = async () => {
    await stopPostgres(deps.postgres, layout, 'immediate').catch(() => undefined);
    rmSync(base, { recursive: true, force: true });
  };
  const removeExitHook = onProcessExit(() => {
    stopPostgresSync(deps.postgres, layout);
    rmSync(base, { recursive: true, force: true });
  });
  try {
    const pg = await startPostgres(deps.postgres, { layout, port: await freePort(), ephemeral: true, log });
    return {
      databaseUrl: pg.databaseUrl,
      stop: once(async () => {
        await teardown();
        removeExitHook();
      }),
    };
  } catch (err) {
    removeExitHook();
    await teardown();
    throw err;
  }
}

interface PortsFile {
  postgres?: number;
  redis?: number;
}

function readPorts(file: string): PortsFile {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as PortsFile;
  } catch {
    return {};
  }
}

async function choosePreferred(recorded: number | undefined, fallback: number): Promise<number> {
  if (recorded && recorded !== fallback) {
    const port = await choosePort(recorded);
    if (port === recorded) return port;
  }
  return choosePort(fallback);
}

function persistentLayout(stateDir: string): { layout: PostgresLayout; redisDir: string; portsFile: string } {
  const dir = resolve(stateDir);
  return {
    layout: { dataDir: join(dir, 'postgres'), socketDir: join(dir, 'run'), logFile: join(dir, 'postgres.log') },
    redisDir: join(dir, 'redis'),
    portsFile: join(dir, 'ports.json'),
  };
}

/**
 * Persistent instances for `npm start`, with state under stateDir (postgres/, redis/,
 * ports.json). Reuses servers already running from that stateDir (left by a launcher that
 * died: the caller holds the state dir's launcher record, so no live launcher owns them);
 * otherwise prefers the recorded ports, then 54329 / 63799, then any free port. stop() stops both.
 */
export async function startPersistentServices(stateDir: string, log: Log = silent): Promise<LocalServices> {
  const deps = await resolveSystemDependencies(log);
  // 0755 so the `postgres` user can reach its data dir when we run as root.
  mkdirSync(resolve(stateDir), { recursive: true, mode: 0o755 });
  const { layout, redisDir, portsFile } = persistentLayout(stateDir);
  const recorded = readPorts(portsFile);

  const pgPort = (await isRunning(deps.postgres, layout))
    ? (runningPort(layout.dataDir) ?? DEFAULT_PG_PORT)
    : await choosePreferred(recorded.postgres, DEFAULT_PG_PORT);
  const redisPort =
    recorded.redis && (await isOurRedis(recorded.redis, redisDir))
      ? recorded.redis
      : await choosePreferred(recorded.redis, DEFAULT_REDIS_PORT);

  const teardown = async () => {
    const results = await Promise.allSettled([
      stopPostgres(deps.postgres, layout, 'fast'),
      stopRedis(redisPort, join(redisDir, 'redis.pid'), false),
    ]);
    const failed = results.flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
    if (failed.length > 0) throw new Error(failed.map((e) => e.message).join('\n\n'));
  };
  const [pg, redis] = await startBoth(
    () => startPostgres(deps.postgres, { layout, port: pgPort, ephemeral: false, log }),
    () => startRedis(deps.redisServer, { dir: redisDir, port: redisPort, ephemeral: false, log }),
    () => Promise.resolve(),
  );
  writeFileSync(portsFile, `${JSON.stringify({ postgres: pg.port, redis: redis.port }, null, 2)}\n`);
  return {
    databaseUrl: pg.databaseUrl,
    redisUrl: redis.redisUrl,
    ports: { postgres: pg.port, redis: redis.port },
    stop: once(teardown),
  };
}

export interface PersistentServicesState {
  /** The port of the PostgreSQL running from the state dir, if one is. */
  readonly postgres?: number;
  /** The port of the Redis running from the state dir, if one is. */
  readonly redis?: number;
}

/** Which of the state dir's servers are running, without starting or installing anything. */
export async function persistentServicesState(stateDir: string): Promise<PersistentServicesState> {
  const { layout, redisDir, portsFile } = persistentLayout(stateDir);
  const postgres = await findInstalledPostgres();
  const pgRunning = postgres !== undefined && (await isRunning(postgres, layout));
  const recordedRedis = readPorts(portsFile).redis;
  const redisRunning = recordedRedis !== undefined && (await isOurRedis(recordedRedis, redisDir));
  return {
    postgres: pgRunning ? (runningPort(layout.dataDir) ?? DEFAULT_PG_PORT) : undefined,
    redis: redisRunning ? recordedRedis : undefined,
  };
}

/**
 * Stops the state dir's servers that are running (`npm stop` after a launcher died without
 * stopping them); says what it stopped. Only ever call it while no live launcher owns them.
 */
export async function stopPersistentServices(stateDir: string, log: Log = silent): Promise<string[]> {
  const { layout, redisDir } = persistentLayout(stateDir);
  const running = await persistentServicesState(stateDir);
  const stopped: string[] = [];
  const postgres = await findInstalledPostgres();
  if (running.postgres !== undefined && postgres) {
    log(`stopping PostgreSQL on port ${running.postgres}`);
    await stopPostgres(postgres, layout, 'fast');
    stopped.push(`PostgreSQL (port ${running.postgres})`);
  }
  if (running.redis !== undefined) {
    log(`stopping Redis on port ${running.redis}`);
    await stopRedis(running.redis, join(redisDir, 'redis.pid'), false);
    stopped.push(`Redis (port ${running.redis})`);
  }
  return stopped;
}
