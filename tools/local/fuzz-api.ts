/**
 * `scripts/fuzz-api.sh`: schemathesis against the built api, as CI runs it. Starts a throwaway
 * PostgreSQL (pgvector) and Redis like `npm test` does, migrates, starts the api, creates a
 * tenant, a project and an admin session token through the admin API, then runs schemathesis
 * over /docs/json with every check. Exits with schemathesis' status: any 5xx or response that
 * breaks the document fails the run.
 *
 * Environment: SCHEMATHESIS (the binary; default .tools/schemathesis/bin/schemathesis),
 * FUZZ_MAX_EXAMPLES (per operation; default 25), FUZZ_SEED (default: random, printed).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findRepoRoot } from './deps';
import { startEphemeralServices } from './services';
import { freePort, sleep } from './util';

const say = (line: string) => process.stderr.write(`[fuzz-api] ${line}\n`);

async function main(): Promise<number> {
  const root = findRepoRoot() ?? process.cwd();
  const schemathesis = process.env.SCHEMATHESIS ?? join(root, '.tools/schemathesis/bin/schemathesis');
  const maxExamples = process.env.FUZZ_MAX_EXAMPLES ?? '25';
  const seed = process.env.FUZZ_SEED ?? String(randomInt(1, 2 ** 31));
  const work = mkdtempSync(join(tmpdir(), 'cairn-fuzz-'));
  const services = await startEphemeralServices(say);
  let api: ChildProcess | undefined;
  try {
    const port = await freePort();
    const adminToken = `cairn_pa_${randomBytes(32).toString('base64url')}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      API_PORT: String(port),
      DATABASE_URL: services.databaseUrl,
      REDIS_URL: services.redisUrl,
      CAIRN_ADMIN_TOKEN: adminToken,
      CAIRN_MASTER_KEY: randomBytes(32).toString('base64'),
      EMBEDDING_PROVIDER: 'hash',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
      // The fuzzer is one token sending thousands of requests: budgets would answer 429 to most.
      RATE_LIMIT_TOKEN_PER_MINUTE: '1000000',
      RATE_LIMIT_TENANT_PER_MINUTE: '10000000',
      // No worker runs here: a URL fetch waits out KB_FETCH_WAIT_MS (10 s by default, as long
      // as schemathesis' response-time limit) before answering 202 pending.
      KB_FETCH_WAIT_MS: '2000',
    };
    say('migrating…');
    if (
      (await exitCode(
        spawn(process.execPath, ['dist/apps/api/src/migrate.js'], { cwd: root, env, stdio: 'inherit' }),
      )) !== 0
    ) {
      throw new Error('migration failed');
    }
    api = spawn(process.execPath, ['dist/apps/api/src/main.js'], { cwd: root, env, stdio: 'inherit' });
    const base = `http://127.0.0.1:${port}`;
    await waitReady(`${base}/readyz`, api);

    const admin = client(base, adminToken);
    const tenant = `fuzz${randomBytes(3).toString('hex')}`;
    await admin('POST', '/v1/tenants', { slug: tenant, name: 'Fuzzing tenant' });
    const project = 'fuzzed';
    await admin('POST', `/v1/tenants/${tenant}/projects`, { slug: project, name: 'Fuzzed project' });
    const session = (await admin('POST', `/v1/tenants/${tenant}/tokens`, {
      role: 'admin',
      projects: '*',
      agentId: 'schemathesis',
    })) as { token: string };

    say(`schemathesis: ${maxExamples} examples per operation, seed ${seed}`);
    const config = join(root, 'scripts/schemathesis.toml');
    const args = ['--config-file', config, 'run', `${base}/docs/json`, '--checks', 'all'];
    // One worker: Debian 12's Python 3.11.2 has a CPython bug (gh-106905, fixed in 3.11.8) that
    // crashes schemathesis' threads with "AST constructor recursion depth mismatch" at random.
    args.push('--max-examples', maxExamples, '--seed', seed, '--workers', '1', '--no-color');
    args.push('--request-timeout', '30', '--report', 'junit', '--report-dir', join(root, 'schemathesis-report'));
    // A narrower run while working on some routes (CI fuzzes them all): FUZZ_PATH_REGEX=/code/
    if (process.env.FUZZ_PATH_REGEX) args.push('--include-path-regex', process.env.FUZZ_PATH_REGEX);
    const fuzzEnv = {
      ...process.env,
      FUZZ_SESSION_TOKEN: session.token,
      FUZZ_ADMIN_TOKEN: adminToken,
      FUZZ_PROJECT: project,
      SCHEMATHESIS_HOOKS: join(root, 'scripts/schemathesis-hooks.py'),
    };
    return await exitCode(spawn(schemathesis, args, { cwd: work, env: fuzzEnv, stdio: 'inherit' }));
  } finally {
    if (api && api.exitCode === null) {
      api.kill('SIGTERM');
      await exitCode(api);
    }
    await services.stop().catch((error: Error) => say(`stopping services: ${error.message}`));
    rmSync(work, { recursive: true, force: true });
  }
}

function client(base: string, token: string) {
  return async (method: string, path: string, body?: unknown): Promise<unknown> => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
    return text ? JSON.parse(text) : undefined;
  };
}

async function waitReady(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the api exited with ${child.exitCode} before it was ready`);
    const ok = await fetch(url).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await sleep(250);
  }
  throw new Error(`${url} not ready within 120 s`);
}

function exitCode(child: ChildProcess): Promise<number> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

main().then(
  (code) => process.exit(code),
  (error: Error) => {
    say(error.stack ?? error.message);
    process.exit(1);
  },
);
