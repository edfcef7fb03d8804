/**
 * The MCP client the conformance suite's client scenarios drive (scripts/mcp-conformance-client.sh):
 * `node dist/tools/mcp-conformance/cairn-client.js <server url>`, with MCP_CONFORMANCE_SCENARIO
 * and, for some scenarios, MCP_CONFORMANCE_CONTEXT set by the suite. The client under test is the
 * real, built `cairn mcp --oauth` (the stdio bridge with its OAuth client): this program starts it
 * as an agent would, over stdio with the MCP SDK's client, in a home of its own (nothing kept
 * between scenarios), and asks what an agent asks: initialize, tools/list, then every tool once.
 * The bridge does all of the HTTP side: discovery, registration, the authorization in the
 * "browser" (CAIRN_BROWSER: browser.js here, which follows the mock server's redirects to the
 * bridge's loopback redirect as a browser would), the token exchange, step-up, re-registration.
 * Exits non-zero when the bridge refuses or fails, which some scenarios expect.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type Tool } from '@modelcontextprotocol/sdk/types.js';

const DIST = resolve(__dirname, '../..');
const CAIRN = join(DIST, 'apps/cli/src/main.js');
const BROWSER = join(__dirname, 'browser.js');
/** The suite's fixed Client ID Metadata Document URL: what auth/basic-cimd expects as client_id. */
const SUITE_CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

/** The environment the bridge runs with: this process's PATH and a throwaway home, nothing else of ours. */
function bridgeEnvironment(home: string, scenario: string): Record<string, string> {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: home,
    CAIRN_CONFIG_DIR: join(home, 'config'),
    CAIRN_CACHE_DIR: join(home, 'cache'),
    CAIRN_STATE_DIR: join(home, 'state'),
    CAIRN_BROWSER: `"${process.execPath}" "${BROWSER}"`,
  };
  // Only the scenario about Client ID Metadata Documents uses the suite's document URL: a real
  // installation would publish its own, and elsewhere dynamic registration is what is tested.
  if (scenario === 'auth/basic-cimd') env.CAIRN_OAUTH_CLIENT_METADATA_URL = SUITE_CLIENT_METADATA_URL;
  const context = process.env.MCP_CONFORMANCE_CONTEXT;
  if (context) {
    const { client_id: id, client_secret: secret } = JSON.parse(context) as {
      client_id?: string;
      client_secret?: string;
    };
    // Pre-registered credentials, as an administrator would configure them for a server without registration.
    if (id) env.CAIRN_OAUTH_CLIENT_ID = id;
    if (secret) env.CAIRN_OAUTH_CLIENT_SECRET = secret;
  }
  return env;
}

/** Arguments for a tool from its input schema's required properties, enough to call it once. */
function argumentsFor(tool: Tool): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  const properties = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string }>;
  (tool.inputSchema.required ?? []).forEach((name, index) => {
    const type = properties[name]?.type;
    args[name] = type === 'number' || type === 'integer' ? index + 1 : type === 'boolean' ? true : 'cairn';
  });
  return args;
}

async function main(): Promise<void> {
  const serverUrl = process.argv[process.argv.length - 1];
  if (!serverUrl?.startsWith('http')) throw new Error('usage: cairn-client.js <server url>');
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
  const home = mkdtempSync(join(tmpdir(), 'cairn-conformance-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [CAIRN, 'mcp', '--oauth', '--no-offline', '--mcp-url', serverUrl],
    env: bridgeEnvironment(home, scenario),
    stderr: 'inherit',
  });
  const client = new Client({ name: 'cairn-conformance', version: '1.0.0' });
  try {
    await client.connect(transport);
    const { tools } = await client.listTools();
    for (const tool of tools) await client.callTool({ name: tool.name, arguments: argumentsFor(tool) });
  } finally {
    await client.close().catch(() => undefined);
    rmSync(home, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`cairn-client: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
