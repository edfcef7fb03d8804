/**
 * `npm start`: the whole service on one machine. Uses DATABASE_URL / REDIS_URL when set;
 * otherwise starts (installing if needed) a local PostgreSQL with pgvector and Redis under
 * .cairn/. Migrates, then runs api, mcp-gateway and worker until Ctrl-C.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
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

  say('migrating…');
  const migrated = await runToEnd(
    spawn(process.execPath, ['dist/apps/api/src/migrate.js'], { cwd: root, env, stdio: 'inherit' }),
  );
  if (migrated !== 0) throw new Error('migration failed; see the report above');

  const children = APPS.map((app) => spawn(process.execPath, [app.entry], { cwd: root, env, stdio: 'inherit' }));
  const port = (name: string, fallback: number) => Number(env[name] ?? fallback);
  say(`api          http://127.0.0.1:${port('API_PORT', 8080)}  (OpenAPI at /docs)`);
  say(`mcp-gateway  http://127.0.0.1:${port('MCP_PORT', 8081)}`);
  say(`worker       http://127.0.0.1:${port('WORKER_PORT', 8082)}/readyz`);
  say(`database     ${redactPassword(env.DATABASE_URL)}`);
  say(`redis        ${redactPassword(env.REDIS_URL)}`);
  say(
    generatedAdminToken
      ? `admin token  ${env.CAIRN_ADMIN_TOKEN}  (kept in .cairn/secrets.json)`
      : 'admin token  from CAIRN_ADMIN_TOKEN',
  );
  say(
    'first tenant: curl -X POST http://127.0.0.1:8080/v1/tenants -H "Authorization: Bearer <admin token>" ' +
      `-H 'content-type: application/json' -d '{"slug":"acme","name":"Acme"}'`,
  );

  const code = await superviseUntilExit(children);
  if (services) await services.stop().catch((error: Error) => say(`stopping local services: ${error.message}`));
  process.exit(code);
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

function redactPassword(url: string | undefined): string {
  if (!url) return '(unset)';
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparseable URL)';
  }
}

main().catch((error: unknown) => {
  say(error instanceof MissingDependenciesError ? error.message : `failed to start: ${(error as Error).message}`);
  process.exit(1);
});
