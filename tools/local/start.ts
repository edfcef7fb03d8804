/**
 * `npm start`: the whole service on one machine. Uses DATABASE_URL / REDIS_URL when set;
 * otherwise starts (installing if needed) a local PostgreSQL with pgvector and Redis under
 * .cairn/. Migrates, then runs api, mcp-gateway and worker until Ctrl-C.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { bannerLines } from './banner';
import { chooseEmbedder } from './embedder-choice';
import { findRepoRoot } from './deps';
import { loadOrCreateLocalSecrets } from './local-secrets';
import { nodeVersionWarning } from './node-support';
import { type LocalServices, MissingDependenciesError, startPersistentServices } from './services';

const APPS = [
  { name: 'api', entry: 'dist/apps/api/src/main.js', portVar: 'API_PORT', port: 8080 },
  { name: 'mcp-gateway', entry: 'dist/apps/mcp-gateway/src/main.js', portVar: 'MCP_PORT', port: 8081 },
  { name: 'worker', entry: 'dist/apps/worker/src/main.js', portVar: 'WORKER_PORT', port: 8082 },
] as const;

const say = (line: string) => process.stderr.write(`[cairn] ${line}\n`);

async function main(): Promise<void> {
  const nodeWarning = nodeVersionWarning();
  if (nodeWarning) say(nodeWarning);
  const root = findRepoRoot() ?? process.cwd();
  const stateDir = join(root, '.cairn');
  mkdirSync(stateDir, { recursive: true, mode: 0o755 });
  // Local by default: a development stack should not listen on every interface.
  const env: NodeJS.ProcessEnv = { HOST: '127.0.0.1', ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'development' };

  let services: LocalServices | undefined;
  if (!env.DATABASE_URL || !env.REDIS_URL) {
    say('DATABASE_URL / REDIS_URL not set: using local PostgreSQL (pgvector) and Redis under .cairn/');
    services = await startPersistentServices(stateDir, say);
    env.DATABASE_URL ??= services.databaseUrl;
    env.REDIS_URL ??= services.redisUrl;
  }
  const generatedAdminToken = !env.CAIRN_ADMIN_TOKEN;
  if (!env.CAIRN_ADMIN_TOKEN || !env.CAIRN_MASTER_KEY) {
    const secrets = loadOrCreateLocalSecrets(stateDir);
    env.CAIRN_ADMIN_TOKEN ??= secrets.adminToken;
    env.CAIRN_MASTER_KEY ??= secrets.masterKey;
  }

  const embedder = await chooseEmbedder(env, root, { log: say });
  Object.assign(env, embedder.env);
  say(embedder.message);

  say('migrating…');
  const migrated = await runToEnd(
    spawn(process.execPath, ['dist/apps/api/src/migrate.js'], { cwd: root, env, stdio: 'inherit' }),
  );
  if (migrated !== 0) throw new Error('migration failed; see the report above');

  const children = APPS.map((app) => spawn(process.execPath, [app.entry], { cwd: root, env, stdio: 'inherit' }));
  const port = (app: (typeof APPS)[number]) => Number(env[app.portVar] ?? app.port);
  // Printed once the apps answer, so it is not buried under their start-up logs.
  void announceWhenReady(children, port, env, generatedAdminToken ? env.CAIRN_ADMIN_TOKEN : undefined).catch(
    (error: Error) => say(`could not print the summary: ${error.message}`),
  );

  const code = await superviseUntilExit(children);
  if (services) await services.stop().catch((error: Error) => say(`stopping local services: ${error.message}`));
  process.exit(code);
}

const READY_TIMEOUT_MS = 120_000;

async function announceWhenReady(
  children: ChildProcess[],
  port: (app: (typeof APPS)[number]) => number,
  env: NodeJS.ProcessEnv,
  generatedAdminToken: string | undefined,
): Promise<void> {
  const alive = () => children.every((child) => child.exitCode === null && child.signalCode === null);
  const ready = await Promise.all(APPS.map((app) => waitReady(port(app), alive)));
  if (!alive()) return;
  const apiPort = port(APPS[0]);
  const lines = bannerLines({
    apiPort,
    mcpPort: port(APPS[1]),
    workerPort: port(APPS[2]),
    databaseUrl: env.DATABASE_URL,
    redisUrl: env.REDIS_URL,
    generatedAdminToken,
    tenantsExist: ready[0] ? await tenantsExist(apiPort, env.CAIRN_ADMIN_TOKEN!) : undefined,
    notReady: APPS.filter((_, i) => !ready[i]).map((app) => app.name),
  });
  for (const line of lines) {
    if (line.paste) process.stderr.write(`${line.text}\n`);
    else say(line.text);
  }
}

/** Polls `/readyz` until it answers 200, the timeout passes or an app exits. */
async function waitReady(port: number, alive: () => boolean): Promise<boolean> {
  const deadline = Date.now() + READY_TIMEOUT_MS;
  while (Date.now() < deadline && alive()) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2_000) });
      await response.body?.cancel();
      if (response.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  return false;
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

function runToEnd(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => child.once('exit', (code) => resolve(code ?? 1)));
}

/** Ctrl-C or SIGTERM stops all three gracefully; if one app dies, the others are stopped too. */
function superviseUntilExit(children: ChildProcess[]): Promise<number> {
  return new Promise((resolve) => {
    let exitCode = 0;
    let stopping = false;
    let running = children.length;
    const stopAll = () => {
      if (stopping) return;
      stopping = true;
      for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    };
    for (const child of children) {
      child.once('exit', (code) => {
        if (!stopping && code !== 0) exitCode = code ?? 1;
        stopAll();
        running -= 1;
        if (running === 0) resolve(exitCode);
      });
    }
    process.on('SIGINT', stopAll);
    process.on('SIGTERM', stopAll);
  });
}

main().catch((error: unknown) => {
  say(error instanceof MissingDependenciesError ? error.message : `failed to start: ${(error as Error).message}`);
  process.exit(1);
});
