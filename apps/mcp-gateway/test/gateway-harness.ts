import { randomBytes } from 'node:crypto';
import { type CairnConfig } from '@cairn/config';
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
  type TenantFixture,
} from '@cairn/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type NestFastifyApplication } from '@nestjs/platform-fastify';
import { type Logger } from 'pino';
import { ApiModule } from '@cairn/api-app';

/**
 * One database and Redis prefix with the api (for administration, through its public REST
 * API) and one or more gateways listening on real ports, for the SDK's real HTTP client.
 */
export interface GatewayWorld {
  readonly database: TestDatabase;
  readonly config: CairnConfig;
  readonly admin: TestClient;
  readonly api: NestFastifyApplication;
  readonly gateways: { app: NestFastifyApplication; url: string }[];
  /** `<gateway 0>/mcp` */
  readonly mcpUrl: string;
  close(): Promise<void>;
}

export async function startGatewayWorld(
  options: {
    overrides?: Record<string, string>;
    gateways?: number;
    gatewayLogger?: Logger;
    /** Given PostgreSQL's port, the local port the apps should reach it through (a relay the test controls). */
    databaseVia?: (port: number) => Promise<number>;
  } = {},
): Promise<GatewayWorld> {
  const database = await createTestDatabase();
  const databaseUrl = new URL(database.url);
  if (options.databaseVia) databaseUrl.port = String(await options.databaseVia(Number(databaseUrl.port)));
  const env = { QUEUE_PREFIX: `g${randomBytes(4).toString('hex')}`, ...options.overrides };
  const config = testConfig(databaseUrl.toString(), testRedisUrl(), env);
  const api = await createTestHttpApp(ApiModule.register(config), config);
  const gateways: GatewayWorld['gateways'] = [];
  for (let i = 0; i < (options.gateways ?? 1); i += 1) {
    const gatewayConfig = testConfig(
      databaseUrl.toString(),
      testRedisUrl(),
      { HOST: '127.0.0.1', ...env },
      'mcp-gateway',
    );
    const app = await createTestHttpApp(
      McpGatewayModule.register(gatewayConfig),
      gatewayConfig,
      'mcp-gateway',
      options.gatewayLogger,
    );
    await app.listen(0, '127.0.0.1');
    const address = app.getHttpServer().address() as { port: number };
    gateways.push({ app, url: `http://127.0.0.1:${address.port}` });
  }
  return {
    database,
    config,
    api,
    admin: new TestClient(api).as(TEST_ADMIN_TOKEN),
    gateways,
    mcpUrl: `${gateways[0].url}/mcp`,
    close: async () => {
      for (const gateway of gateways) await gateway.app.close();
      await api.close();
      await database.drop();
    },
  };
}

export interface TenantWithProjects {
  readonly tenant: TenantFixture;
  readonly projects: string[];
}

export async function tenantWithProjects(world: GatewayWorld, count = 2): Promise<TenantWithProjects> {
  const tenant = await createTenant(world.admin);
  const projects: string[] = [];
  for (let i = 0; i < count; i += 1) projects.push((await createProject(world.admin, tenant.slug)).slug);
  return { tenant, projects };
}

export type TokenRequest = Parameters<typeof issueToken>[2];

export async function tokenFor(world: GatewayWorld, tenant: string, body: TokenRequest): Promise<string> {
  return (await issueToken(world.admin, tenant, body)).token;
}

/** The SDK's own client over Streamable HTTP, holding a bearer token. */
export async function connectClient(url: string, token: string): Promise<Client> {
  const client = new Client({ name: 'cairn-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(url), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  return client;
}

/** A raw JSON-RPC POST, for the paths a well-behaved client never takes. */
export async function postRaw(
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; text: string; json: any }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      Accept: 'application/json, text/event-stream',
      'Content-Type': 'application/json',
      ...headers,
    },
    body,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export function rpc(method: string, params: Record<string, unknown> = {}, id: number | string = 1): string {
  return JSON.stringify({ jsonrpc: '2.0', id, method, params });
}

export interface ToolOutcome {
  readonly isError: boolean;
  readonly text: string;
  readonly structured: any;
}

/** A tool call through the SDK client, reduced to what the assertions need. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<ToolOutcome> {
  const result = (await client.callTool({ name, arguments: args })) as {
    isError?: boolean;
    content: { type: string; text: string }[];
    structuredContent?: unknown;
  };
  return {
    isError: result.isError === true,
    text: result.content[0]?.text ?? '',
    structured: result.structuredContent,
  };
}

/** A tool call that must succeed: its structured result and text (throws with the tool's own text otherwise). */
export async function toolOk(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ data: any; text: string }> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text: string }[])[0]?.text ?? '';
  if (result.isError) throw new Error(`${name} failed: ${text}`);
  return { data: result.structuredContent as any, text };
}

/** A tool call that must be refused as an `isError` result (no structured content): its text. */
export async function toolRefused(client: Client, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError).toBe(true);
  expect(result.structuredContent).toBeUndefined();
  return (result.content as { text: string }[])[0].text;
}
