/**
 * `npm start`: the whole service on one machine. Uses DATABASE_URL / REDIS_URL when set;
 * otherwise starts (installing if needed) a local PostgreSQL with pgvector and Redis under the
 * state dir (.cairn/). Migrates, then runs api, mcp-gateway and worker until it is stopped:
 * Ctrl-C, SIGINT/SIGTERM/SIGHUP to it or to npm (package.json `exec`s it, so npm's forwarded
 * signal reaches it), or `npm stop`. However it stops, it stops everything it started.
 * One launcher per state dir: a second one refuses (instance-lock.ts).
 */
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { bannerLines } from './banner';
import { chooseEmbedder } from './embedder-choice';
import { findRepoRoot } from './deps';
import { AlreadyRunningError, acquireInstanceLock, type InstanceLock, type LauncherRecord } from './instance-lock';
import {
  alive,
  APPS,
  type AppPorts,
  appPorts,
  exitOf,
  recordApps,
  type RunningApp,
  spawnApps,
  stopLeftoverApps,
  takenPorts,
  waitReady,
} from './local-apps';
import { loadOrCreateLocalSecrets } from './local-secrets';
import { nodeSupport } from './node-support';
import { type LocalServices, MissingDependenciesError, startPersistentServices } from './services';
import { adminTokenCommand, describeStateDir, localStateDir } from './state-dir';
import { StopRequests } from './stop-requests';

const say = (line: string) => process.stderr.write(`[cairn] ${line}\n`);

const READY_TIMEOUT_MS = 120_000;
/** How long a dead launcher's apps get to drain before they are killed (the apps' default deadline). */
const LEFTOVER_DRAIN_MS = 30_000;

async function main(): Promise<number> {
  const node = nodeSupport();
  if (node.refusal) {
    say(node.refusal.replaceAll('\n', '\n[cairn] '));
    return 1;
  }
  if (node.warning) say(node.warning);
  const root = findRepoRoot() ?? process.cwd();
  const stateDir = localStateDir(root);
  mkdirSync(stateDir, { recursive: true, mode: 0o755 });
  // Local by default: a development stack should not listen on every interface.
  const env: NodeJS.ProcessEnv = { HOST: '127.0.0.1', ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' };
  const ports = appPorts(env);
  const host = env.HOST!;

  // From here on every way of stopping is honoured, whatever phase start-up is in.
  const stops = new StopRequests(say);
  // npm sets npm_lifecycle_event for the scripts it runs: under `npm start`, npm's process is the
  // one a user (or a supervisor) holds, so the stack ends with it.
  if (process.env.npm_lifecycle_event) stops.watchParent();
  let lock: InstanceLock;
  try {
    lock = await acquireInstanceLock(stateDir, { host, ports, apps: [] }, async (stale) => {
      say(`the launcher recorded in ${describeStateDir(root, stateDir)} (pid ${stale.pid}) ended without stopping`);
      const stopped = await stopLeftoverApps(stale.apps, LEFTOVER_DRAIN_MS);
      if (stopped.length > 0) say(`stopped the apps it left running: ${stopped.join(', ')}`);
    });
  } catch (error) {
    if (!(error instanceof AlreadyRunningError)) throw error;
    say(alreadyRunning(error.record, describeStateDir(root, stateDir)));
    return 1;
  }
  stops.onStop(() => lock.update({ state: 'stopping' }));
  try {
    return stops.requested ? 0 : await run({ root, stateDir, env, ports, host, lock, stops });
  } finally {
    lock.release();
  }
}

interface Launch {
  readonly root: string;
  readonly stateDir: string;
  readonly env: NodeJS.ProcessEnv;
  readonly ports: AppPorts;
  readonly host: string;
  readonly lock: InstanceLock;
  readonly stops: StopRequests;
}

async function run(launch: Launch): Promise<number> {
  const { root, stateDir, env, ports, host, lock, stops } = launch;
  const taken = await takenPorts(ports, host);
  if (taken.length > 0) {
    for (const sentence of taken) say(sentence);
    say(
      `stop what uses ${taken.length === 1 ? 'it' : 'them'}, or start on other ports: ` +
        'API_PORT=… MCP_PORT=… WORKER_PORT=… npm start',
    );
    return 1;
  }

  let services: LocalServices | undefined;
  try {
    if (!env.DATABASE_URL || !env.REDIS_URL) {
      say(
        `DATABASE_URL / REDIS_URL not set: using local PostgreSQL (pgvector) and Redis under ${describeStateDir(root, stateDir)}`,
      );
      services = await startPersistentServices(stateDir, say);
      lock.update({ services: { postgresPort: services.ports!.postgres, redisPort: services.ports!.redis } });
      env.DATABASE_URL ??= services.databaseUrl;
      env.REDIS_URL ??= services.redisUrl;
    }
    if (stops.requested) return 0;
    return await runApps(launch, services);
  } finally {
    if (services) {
      await services.stop().then(
        () => say('stopped the local PostgreSQL and Redis'),
        (error: Error) => say(`stopping local services: ${error.message}`),
      );
    }
  }
}

async function runApps(launch: Launch, services: LocalServices | undefined): Promise<number> {
  const { root, stateDir, env, ports, host, lock, stops } = launch;
  const adminTokenFromEnvironment = Boolean(env.CAIRN_ADMIN_TOKEN);
  // OAUTH_ENABLED=true npm start: on this machine the issuer and the resource are the local apps
  // (docs/oauth.md); a deployment names its public URLs. The issuer is the console's origin, where
  // people sign in to consent: localhost, on which browsers keep the Secure session cookie over http.
  if (env.OAUTH_ENABLED === 'true') {
    const urlHost = host.includes(':') ? `[${host}]` : host;
    const loopback = ['127.0.0.1', '::1', 'localhost'].includes(host);
    env.API_PUBLIC_URL ??= `http://${loopback ? 'localhost' : urlHost}:${ports.api}`;
    env.MCP_PUBLIC_URL ??= `http://${urlHost}:${ports.mcp}`;
  }
  if (!env.CAIRN_ADMIN_TOKEN || !env.CAIRN_MASTER_KEY) {
    const secrets = loadOrCreateLocalSecrets(stateDir);
    env.CAIRN_ADMIN_TOKEN ??= secrets.adminToken;
    env.CAIRN_MASTER_KEY ??= secrets.masterKey;
  }
  const embedder = await chooseEmbedder(env, root, { log: say });
  Object.assign(env, embedder.env);
  say(embedder.message);
  if (stops.requested) return 0;

  say('migrating…');
  const migration = spawn(process.execPath, ['dist/apps/api/src/migrate.js'], { cwd: root, env, stdio: 'inherit' });
  const cancelMigration = stops.onStop(() => migration.kill('SIGTERM'));
  const migrated = await exitOf(migration);
  cancelMigration();
  if (stops.requested) return 0;
  if (migrated !== 0) {
    say('migration failed; see the report above');
    return 1;
  }

  const apps = spawnApps(root, env, ports);
  lock.update({ apps: recordApps(apps) });
  const stopApps = () => {
    for (const app of apps) if (alive(app.child)) app.child.kill('SIGTERM');
  };
  stops.onStop(stopApps);
  const exited = superviseUntilExit(apps, stops, stopApps);
  const banner = announceWhenReady(launch, apps, services, adminTokenFromEnvironment).catch((error: Error) =>
    say(`could not print the summary: ${error.message}`),
  );
  const code = await exited;
  await banner;
  return code;
}

/**
 * Resolves once every app has exited: 0 when they were asked to stop and did so cleanly; the
 * first unexpected exit's code (at least 1) when one died, which stops the others too.
 */
async function superviseUntilExit(apps: RunningApp[], stops: StopRequests, stopApps: () => void): Promise<number> {
  let failure = 0;
  await Promise.all(
    apps.map(async (app) => {
      const code = await exitOf(app.child);
      if (!stops.requested && failure === 0) {
        failure = code === 0 ? 1 : code;
        say(`${app.name} exited (code ${code}) before it was asked to stop; stopping the others`);
        stopApps();
      } else if (code !== 0 && failure === 0) {
        failure = code;
      }
    }),
  );
  return failure;
}

/** The summary, printed once every app answers `/readyz` (never when one has died or a stop was asked). */
async function announceWhenReady(
  launch: Launch,
  apps: RunningApp[],
  services: LocalServices | undefined,
  adminTokenFromEnvironment: boolean,
): Promise<void> {
  const { root, stateDir, env, ports, lock, stops } = launch;
  const stillWaiting = () => !stops.requested && apps.every((app) => alive(app.child));
  const deadline = Date.now() + READY_TIMEOUT_MS;
  const ready = await Promise.all(apps.map((app) => waitReady(app.port, deadline, stillWaiting)));
  if (!stillWaiting()) return;
  if (ready.every(Boolean)) lock.update({ state: 'ready' });
  const lines = bannerLines({
    apiPort: ports.api,
    mcpPort: ports.mcp,
    workerPort: ports.worker,
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    adminToken: adminTokenFromEnvironment ? 'environment' : { command: adminTokenCommand(root, stateDir) },
    tenantsExist: ready[0] ? await tenantsExist(ports.api, env.CAIRN_ADMIN_TOKEN!) : undefined,
    notReady: APPS.filter((_, i) => !ready[i]).map((app) => app.name),
    oauthIssuer: env.OAUTH_ENABLED === 'true' ? env.API_PUBLIC_URL : undefined,
  });
  if (!stillWaiting()) return;
  for (const line of lines) {
    if (line.paste) process.stderr.write(`${line.text}\n`);
    else say(line.text);
  }
  say(services ? 'stop with Ctrl-C or `npm stop`; `npm run status` shows how it is' : 'stop with Ctrl-C or `npm stop`');
}

/** Whether the platform has a tenant yet; undefined when the api could not say. */
async function tenantsExist(apiPort: number, adminToken: string): Promise<boolean | undefined> {
  try {
    const response = await fetch(`http://127.0.0.1:${apiPort}/v1/tenants?limit=1`, {
      headers: { authorization: `Bearer ${adminToken}` },
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) return undefined;
    const page = (await response.json()) as { items?: unknown[] };
    return Array.isArray(page.items) ? page.items.length > 0 : undefined;
  } catch {
    return undefined;
  }
}

function alreadyRunning(record: LauncherRecord, stateDir: string): string {
  return [
    `Cairn is already running from ${stateDir} (launcher pid ${record.pid}, started ${record.startedAt}, ` +
      `api http://127.0.0.1:${record.ports.api}).`,
    'A second `npm start` would fight it for its ports and its PostgreSQL and Redis, so this one does not start.',
    'See it with `npm run status`; stop it with `npm stop` (or Ctrl-C where it runs), then start again.',
  ].join('\n[cairn] ');
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    say(error instanceof MissingDependenciesError ? error.message : `failed to start: ${(error as Error).message}`);
    process.exit(1);
  },
);
