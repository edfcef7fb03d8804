import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { type CairnConfig } from '@cairn/config';
import { freePort } from '@cairn/process-harness';
import { ApiModule } from '@cairn/api-app';
import { McpGatewayModule } from '@cairn/mcp-gateway-app';
import {
  createProject,
  createTenant,
  createTestDatabase,
  createTestHttpApp,
  issueToken,
  TEST_ADMIN_TOKEN,
  TestClient,
  testConfig,
  type TestDatabase,
  testRedisUrl,
} from '@cairn/testing';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';

const REPO_ROOT = resolve(__dirname, '../../..');
/** The BUILT command, as `npm i -g` installs it (`npm run build` first). */
export const CAIRN_ENTRY = join(REPO_ROOT, 'dist/apps/cli/src/main.js');

/**
 * A real api and MCP gateway listening on loopback ports over one test database and Redis
 * prefix, for the `cairn` command to talk to as it would to a deployment. The gateway's port is
 * the api's MCP_PORT and MCP_PUBLIC_URL names it (unless `publicUrl: false`), so the api can tell
 * the command where it is.
 */
export interface CliWorld {
  readonly database: TestDatabase;
  readonly config: CairnConfig;
  /** Platform admin, through the api (in-process) for setting up test data. */
  readonly admin: TestClient;
  readonly api: NestFastifyApplication;
  readonly apiUrl: string;
  readonly mcpUrl: string;
  close(): Promise<void>;
}

export async function startCliWorld(
  overrides: Record<string, string> = {},
  options: { publicUrl?: boolean } = {},
): Promise<CliWorld> {
  const database = await createTestDatabase();
  const mcpPort = await freePort();
  const mcpBase = `http://127.0.0.1:${mcpPort}`;
  const env: Record<string, string> = {
    QUEUE_PREFIX: `c${randomBytes(4).toString('hex')}`,
    MCP_PORT: String(mcpPort),
    ...(options.publicUrl === false ? {} : { MCP_PUBLIC_URL: mcpBase }),
    ...overrides,
  };
  const config = testConfig(database.url, testRedisUrl(), env);
  const api = await createTestHttpApp(ApiModule.register(config), config);
  await api.listen(0, '127.0.0.1');
  const apiPort = (api.getHttpServer().address() as { port: number }).port;
  const gatewayConfig = testConfig(database.url, testRedisUrl(), { HOST: '127.0.0.1', ...env }, 'mcp-gateway');
  const gateway = await createTestHttpApp(McpGatewayModule.register(gatewayConfig), gatewayConfig, 'mcp-gateway');
  await gateway.listen(mcpPort, '127.0.0.1');
  return {
    database,
    config,
    admin: new TestClient(api).as(TEST_ADMIN_TOKEN),
    api,
    apiUrl: `http://127.0.0.1:${apiPort}`,
    mcpUrl: `${mcpBase}/mcp`,
    close: async () => {
      await gateway.close();
      await api.close();
      await database.drop();
    },
  };
}

/** A tenant with projects and a token, made through the admin API. */
export async function tenantWithToken(
  world: CliWorld,
  body: Parameters<typeof issueToken>[2] = { role: 'member', agentId: 'cli-test:agent' },
  projectCount = 2,
): Promise<{ tenant: string; projects: string[]; token: string; tokenId: string }> {
  const tenant = await createTenant(world.admin);
  const projects: string[] = [];
  for (let i = 0; i < projectCount; i += 1) projects.push((await createProject(world.admin, tenant.slug)).slug);
  const issued = await issueToken(world.admin, tenant.slug, { defaultProject: projects[0], ...body });
  return { tenant: tenant.slug, projects, token: issued.token, tokenId: issued.id };
}

/** A private home for one test: HOME, XDG dirs and a working directory. */
export interface Home {
  readonly dir: string;
  readonly cwd: string;
  readonly configDir: string;
  readonly env: Record<string, string>;
  remove(): void;
}

export function makeHome(): Home {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-cli-home-'));
  const cwd = join(dir, 'repo');
  mkdirSync(cwd, { recursive: true });
  const env = {
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, '.config'),
    XDG_CACHE_HOME: join(dir, '.cache'),
    XDG_STATE_HOME: join(dir, '.local/state'),
    PATH: [dirname(process.execPath), '/usr/bin', '/bin'].join(delimiter),
  };
  return {
    dir,
    cwd,
    configDir: join(dir, '.config', 'cairn'),
    env,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export interface RunResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout parsed as one JSON document (with --json). */
  json<T = any>(): T;
}

/** Runs the built `cairn` with exactly this environment (nothing inherited) and optional stdin. */
export function runCairn(
  args: readonly string[],
  options: { env: Record<string, string>; cwd: string; input?: string | Buffer; timeoutMs?: number },
): Promise<RunResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [CAIRN_ENTRY, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 30_000);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolvePromise({
        code,
        stdout,
        stderr,
        json: () => {
          try {
            return JSON.parse(stdout);
          } catch {
            throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`);
          }
        },
      });
    });
    child.stdin.end(options.input ?? '');
  });
}
