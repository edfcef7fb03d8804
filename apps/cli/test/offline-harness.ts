import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { testRedisUrl } from '@cairn/testing';
import {
  ChildApp,
  childEnvironment,
  http,
  PORT_VARIABLE,
  type ProcessAppName,
  REPO_ROOT,
  type RunningApp,
  type Secrets,
  waitUntilHealthy,
  APP_ENTRY,
} from '@cairn/process-harness';

/** The built `cairn` command (`npm run build`). */
export const CAIRN_BIN = join(REPO_ROOT, 'dist/apps/cli/src/main.js');

/**
 * The api and the gateway as real processes on ports fixed for the whole test, so they can be
 * stopped and started again where a client left them (the server going away mid-session).
 */
export class ServerProcesses {
  private running: RunningApp[] = [];

  constructor(
    private readonly databaseUrl: string,
    private readonly secrets: Secrets,
    readonly apiPort: number,
    readonly gatewayPort: number,
  ) {}

  get apiUrl(): string {
    return `http://127.0.0.1:${this.apiPort}`;
  }

  get mcpUrl(): string {
    return `http://127.0.0.1:${this.gatewayPort}/mcp`;
  }

  async start(): Promise<void> {
    const apps: [ProcessAppName, number][] = [
      ['api', this.apiPort],
      ['mcp-gateway', this.gatewayPort],
    ];
    this.running = apps.map(([app, port]) => {
      const env = childEnvironment({
        HOST: '127.0.0.1',
        [PORT_VARIABLE[app]]: String(port),
        DATABASE_URL: this.databaseUrl,
        REDIS_URL: testRedisUrl(),
        CAIRN_MASTER_KEY: this.secrets.masterKey,
        CAIRN_ADMIN_TOKEN: app === 'api' ? this.secrets.adminToken : undefined,
        SHUTDOWN_TIMEOUT_MS: '3000',
        // stop() stands for the server going away: no drain before the listener closes.
        SHUTDOWN_DRAIN_MS: '0',
      });
      return { app, port, url: `http://127.0.0.1:${port}`, process: new ChildApp(app, APP_ENTRY[app], env) };
    });
    // A liveness bound, not a timing: a loaded CI machine can take well over the default to boot two apps.
    await Promise.all(this.running.map((app) => waitUntilHealthy(app, 60_000)));
  }

  /** SIGTERM both and wait until they are gone: nothing listens on the ports any more. */
  async stop(): Promise<void> {
    for (const app of this.running) app.process.signal('SIGTERM');
    await Promise.all(this.running.map((app) => app.process.waitForExit(15_000)));
    this.running = [];
  }

  async kill(): Promise<void> {
    await Promise.all(this.running.map((app) => app.process.kill()));
  }

  /** A REST call with a bearer token; throws with the body on an unexpected status. */
  async rest<T = any>(token: string, method: string, path: string, body?: unknown, expected?: number): Promise<T> {
    const result = await http<T>(`${this.apiUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (expected !== undefined && result.status !== expected) {
      throw new Error(`${method} ${path}: expected ${expected}, got ${result.status} ${result.text}`);
    }
    return result.body;
  }
}

/** Environment of a `cairn` process: the server, the token, and config and cache under `home`. */
export function cairnEnv(server: ServerProcesses, token: string, home: string, extra: Record<string, string> = {}) {
  return childEnvironment({
    CAIRN_URL: server.apiUrl,
    CAIRN_MCP_URL: server.mcpUrl,
    CAIRN_TOKEN: token,
    CAIRN_CONFIG_DIR: join(home, 'config'),
    CAIRN_CACHE_DIR: join(home, 'cache'),
    ...extra,
  });
}

export interface BridgeClient {
  readonly client: Client;
  /** What `cairn mcp` wrote on stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** The MCP SDK's real Client over stdio, starting the built `cairn mcp` as its child process. */
export async function connectBridge(env: Record<string, string>, args: string[] = []): Promise<BridgeClient> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CAIRN_BIN, 'mcp', ...args],
    env,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'offline-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** Runs `cairn <args>` to completion: exit code, stdout, stderr. */
export function runCairn(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CAIRN_BIN, ...args], { env, timeout: 60_000 });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}
