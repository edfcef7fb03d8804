import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { ApiModule } from '@cairn/api-app';
import { type CairnConfig } from '@cairn/config';
import { McpGatewayModule } from '@cairn/mcp-gateway-app';
import {
  createProject,
  createTestDatabase,
  createTestHttpApp,
  personWithPassword,
  TEST_ADMIN_TOKEN,
  testConfig,
  testRedisUrl,
  TestClient,
} from '@cairn/testing';

/** A port free right now on the loopback (the issuer and the resource must be known before the apps start). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The api (Cairn's authorization server, OAUTH_ENABLED) and a gateway, both listening, on one database. */
export interface OAuthWorld {
  readonly api: NestFastifyApplication;
  readonly admin: TestClient;
  readonly client: TestClient;
  readonly issuer: string;
  readonly gatewayUrl: string;
  /** Every gateway replica's base URL (the first is gatewayUrl, the public one). */
  readonly replicaUrls: readonly string[];
  readonly resource: string;
  close(): Promise<void>;
}

export interface OAuthWorldOptions {
  /** Configuration variables on top of the world's own (e.g. OIDC_PROVIDERS). */
  readonly env?: Record<string, string>;
  /** A built console (apps/console/test/console-harness.ts, buildConsole) for the api to serve under /console. */
  readonly consoleDir?: string;
  /** The api's port, for a test that must name its origin first (an identity provider's redirect URI). */
  readonly apiPort?: number;
  /** Gateway replicas behind the one MCP_PUBLIC_URL (the first is the public one). */
  readonly replicas?: number;
}

export async function startOAuthWorld(options: OAuthWorldOptions = {}): Promise<OAuthWorld> {
  const database = await createTestDatabase();
  const apiPort = options.apiPort ?? (await freePort());
  // A port picked first is not held: the gateway's must not be the api's.
  let gatewayPort = await freePort();
  while (gatewayPort === apiPort) gatewayPort = await freePort();
  const issuer = `http://127.0.0.1:${apiPort}`;
  const gatewayUrl = `http://127.0.0.1:${gatewayPort}`;
  const env = {
    QUEUE_PREFIX: `o${randomBytes(4).toString('hex')}`,
    OAUTH_ENABLED: 'true',
    API_PUBLIC_URL: issuer,
    MCP_PUBLIC_URL: gatewayUrl,
    // Plain http on the loopback: the console cookie without __Host- and Secure.
    SESSION_COOKIE_SECURE: 'false',
    HOST: '127.0.0.1',
    ...options.env,
  };
  const apiConfig: CairnConfig = {
    ...testConfig(database.url, testRedisUrl(), env),
    ...(options.consoleDir === undefined ? {} : { console: { dir: options.consoleDir } }),
  };
  const api = await createTestHttpApp(ApiModule.register(apiConfig), apiConfig);
  await api.listen(apiPort, '127.0.0.1');
  const gatewayConfig = testConfig(database.url, testRedisUrl(), env, 'mcp-gateway');
  const gateways: NestFastifyApplication[] = [];
  const replicaUrls: string[] = [];
  for (let i = 0; i < (options.replicas ?? 1); i += 1) {
    const gateway = await createTestHttpApp(McpGatewayModule.register(gatewayConfig), gatewayConfig, 'mcp-gateway');
    // The first is the public one; the others are replicas behind the same MCP_PUBLIC_URL.
    const port = i === 0 ? gatewayPort : await freePort();
    await gateway.listen(port, '127.0.0.1');
    gateways.push(gateway);
    replicaUrls.push(`http://127.0.0.1:${port}`);
  }
  return {
    api,
    admin: new TestClient(api).as(TEST_ADMIN_TOKEN),
    client: new TestClient(api),
    issuer,
    gatewayUrl,
    replicaUrls,
    resource: `${gatewayUrl}/mcp`,
    close: async () => {
      for (const gateway of gateways) await gateway.close();
      await api.close();
      await database.drop();
    },
  };
}

/** A person with a password in a tenant of their own, and two projects there. */
export async function personWithProjects(world: OAuthWorld, role = 'member') {
  const person = await personWithPassword(world.admin, world.client, role);
  const projects = [
    (await createProject(world.admin, person.tenant)).slug,
    (await createProject(world.admin, person.tenant)).slug,
  ];
  return { ...person, projects };
}

/** RFC 7636 S256. */
export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/**
 * A browser without a window: follows nothing by itself, keeps cookies per host (enough for
 * the loopback: no domains, no expiry), so each step of the flow is visible to the test.
 */
export class CookieJar {
  private readonly cookies = new Map<string, Map<string, string>>();

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const host = new URL(url).host;
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    this.cookies.set(host, jar);
    const headers = new Headers(init.headers);
    if (jar.size > 0) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(url, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair.indexOf('=');
      const [name, value] = [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
      if (value === '' || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }
}
