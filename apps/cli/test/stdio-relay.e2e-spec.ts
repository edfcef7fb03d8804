import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import { type FetchLike, type Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { type GatewayWorld, startGatewayWorld, tenantWithProjects, tokenFor } from '@cairn/gateway-harness';
import { type Bridge, startBridge } from '../src/bridge/relay';

/**
 * The bridge in-process between two PassThrough pipes (what a stdio client would write to
 * its child's stdin and read from its stdout), relaying to a real listening gateway.
 */
describe('cairn-mcp-stdio bridge', () => {
  let world: GatewayWorld;
  let slug: string;
  let project: string;
  let token: string;

  beforeAll(async () => {
    world = await startGatewayWorld();
    const { tenant, projects } = await tenantWithProjects(world, 1);
    slug = tenant.slug;
    project = projects[0];
    token = await tokenFor(world, slug, { role: 'agent', projects: [project], agentId: 'stdio:test' });
  });
  afterAll(async () => {
    await world?.close();
  });

  interface Pipes {
    readonly stdin: PassThrough;
    readonly stdout: PassThrough;
    readonly bridge: Bridge;
    readonly logs: string[];
    readonly requests: Request[];
  }

  async function pipes(options: { token?: string; url?: string; slowStreams?: boolean } = {}): Promise<Pipes> {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const logs: string[] = [];
    const requests: Request[] = [];
    // Observes what goes over the wire; the request itself is the real one.
    const observed: FetchLike = async (url, init) => {
      requests.push(new Request(url, init));
      const response = await fetch(url, init);
      if (!options.slowStreams || !response.headers.get('content-type')?.startsWith('text/event-stream')) {
        return response;
      }
      // A slow network: the SSE answer arrives well after its POST has returned.
      return new Response(response.body!.pipeThrough(delayed(200)), response);
    };
    const bridge = await startBridge(stdin, stdout, {
      url: new URL(options.url ?? world.mcpUrl),
      token: options.token ?? token,
      log: (line) => logs.push(line),
      fetch: observed,
    });
    return { stdin, stdout, bridge, logs, requests };
  }

  it('carries a full SDK client session: initialize, list, store, recall', async () => {
    const { stdin, stdout, bridge, requests } = await pipes();
    const client = new Client({ name: 'stdio-client', version: '1.0.0' });
    await client.connect(new PipeClientTransport(stdout, stdin));
    expect(client.getServerVersion()?.name).toMatch(/cairn/i);

    const tools = await client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['memory_store', 'memory_recall']));
    const stored = await client.callTool({
      name: 'memory_store',
      arguments: { content: 'Deploys go through the stdio bridge on Fridays', category: 'decision' },
    });
    expect(stored.isError).toBeFalsy();
    expect(stored.structuredContent).toMatchObject({ memory: { project } });
    const recalled = await client.callTool({ name: 'memory_recall', arguments: { query: 'stdio bridge Fridays' } });
    expect((recalled.content as { text: string }[])[0].text).toContain('stdio bridge on Fridays');

    // Every POST carried the token; after initialize, the negotiated protocol version too.
    expect(requests.filter((request) => request.method === 'POST').length).toBeGreaterThanOrEqual(4);
    for (const request of requests) expect(request.headers.get('authorization')).toBe(`Bearer ${token}`);
    const listing = requests.find((request) => request.method === 'POST' && request !== requests[0]);
    expect(listing?.headers.get('mcp-protocol-version')).toBe('2025-11-25');
    await client.close();
    await bridge.closed;
  });

  it('answers an HTTP refusal as a JSON-RPC error for that request and explains it on stderr', async () => {
    const bad = await pipes({ token: 'cairn_st_this-token-does-not-exist' });
    const answer = nextMessage(bad.stdout);
    bad.stdin.write(line({ jsonrpc: '2.0', id: 'init-1', method: 'initialize', params: initializeParams() }));
    expect(await answer).toMatchObject({
      jsonrpc: '2.0',
      id: 'init-1',
      error: { code: -32001, message: expect.stringMatching(/token/i), data: { httpStatus: 401 } },
    });
    expect(bad.logs.join('\n')).toMatch(/HTTP 401.*CAIRN_TOKEN/);
    expect(bad.logs.join('\n')).not.toContain('this-token-does-not-exist');
    await bad.bridge.close();
    // Explained once: the SDK reports a failed POST to onerror as well as throwing it.
    expect(bad.logs).toHaveLength(1);

    const reader = await tokenFor(world, slug, { role: 'reader', projects: [project] });
    const readOnly = await pipes({ token: reader });
    const refused = nextMessage(readOnly.stdout);
    readOnly.stdin.write(line(callTool(5, 'memory_store', { content: 'not allowed' })));
    expect(await refused).toMatchObject({ id: 5, error: { code: -32003, data: { httpStatus: 403 } } });
    expect(readOnly.logs.join('\n')).toMatch(/HTTP 403.*role or project scope/);
    await readOnly.bridge.close();
    expect(readOnly.logs).toHaveLength(1);
  });

  it('says so when the endpoint cannot be reached, without hanging the client', async () => {
    const unreachable = await pipes({ url: 'http://127.0.0.1:9/mcp' });
    const answer = nextMessage(unreachable.stdout);
    unreachable.stdin.write(line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() }));
    expect(await answer).toMatchObject({ id: 1, error: { message: expect.stringMatching(/Cannot reach/) } });
    await unreachable.bridge.close();
    expect(unreachable.logs).toEqual([expect.stringMatching(/^Cannot reach the remote MCP endpoint/)]);
  });

  it('delivers answers still in flight (JSON and SSE) when stdin ends right after the requests', async () => {
    const { stdin, stdout, bridge } = await pipes({ slowStreams: true });
    const received: JSONRPCMessage[] = [];
    collect(stdout, received);
    stdin.write(line(callTool(1, 'memory_recall', { query: 'anything' })));
    stdin.write(
      line({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'memory_recall', arguments: { query: 'streamed' }, _meta: { progressToken: 'p' } },
      }),
    );
    stdin.end();
    await bridge.closed;
    const ids = received.filter((message) => 'result' in message).map((message) => (message as { id: number }).id);
    expect(ids.sort()).toEqual([1, 2]);
  });

  it('logs an unreadable line and keeps relaying the next ones', async () => {
    const { stdin, stdout, bridge, logs } = await pipes();
    const answer = nextMessage(stdout);
    stdin.write('this is not json\n');
    stdin.write(line({ jsonrpc: '2.0', id: 3, method: 'tools/list', params: {} }));
    expect(await answer).toMatchObject({ id: 3, result: { tools: expect.any(Array) } });
    expect(logs.join('\n')).toMatch(/unreadable message on stdin/);
    await bridge.close();
  });
});

/** What `npm run build` makes of main.ts (CI builds before testing; a bare jest run may not). */
const BUILT_BIN = join(__dirname, '../../../dist/apps/cli/src/mcp-stdio.js');

describe('cairn-mcp-stdio as a process (the built bin)', () => {
  const isolated = mkdtempSync(join(tmpdir(), 'cairn-stdio-'));
  afterAll(() => rmSync(isolated, { recursive: true, force: true }));
  const run = (args: string[], env: Record<string, string>, input: string) =>
    new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(process.execPath, [BUILT_BIN, ...args], {
        // No config file or cache of the user running the tests.
        env: { PATH: dirname(process.execPath), CAIRN_CONFIG_DIR: isolated, CAIRN_CACHE_DIR: isolated, ...env },
        timeout: 30_000,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
      child.stdin.end(input);
    });
  const maybe = existsSync(BUILT_BIN) ? it : it.skip;
  let world: GatewayWorld;

  beforeAll(async () => {
    if (existsSync(BUILT_BIN)) world = await startGatewayWorld();
  });
  afterAll(async () => {
    await world?.close();
  });

  maybe('relays piped requests with CAIRN_TOKEN from the environment, then exits 0 when stdin ends', async () => {
    const { tenant, projects } = await tenantWithProjects(world, 1);
    const token = await tokenFor(world, tenant.slug, { role: 'agent', projects });
    const input =
      line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() }) +
      line({ jsonrpc: '2.0', method: 'notifications/initialized' }) +
      line({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: {} });
    const result = await run(['--url', world.mcpUrl], { CAIRN_TOKEN: token }, input);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    const answers = result.stdout
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as { id: number; result: any });
    expect(answers.map((answer) => answer.id).sort()).toEqual([1, 2]);
    expect(answers.find((answer) => answer.id === 2)?.result.tools.length).toBeGreaterThan(0);
  });

  maybe('explains a refused token on stderr once, answers the request on stdout and exits 0', async () => {
    const input = line({ jsonrpc: '2.0', id: 1, method: 'initialize', params: initializeParams() });
    const result = await run(['--url', world.mcpUrl], { CAIRN_TOKEN: 'cairn_st_this-token-does-not-exist' }, input);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ id: 1, error: { code: -32001, data: { httpStatus: 401 } } });
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines).toEqual([
      expect.stringMatching(/^cairn-mcp-stdio: remote refused a request with HTTP 401: .*CAIRN_TOKEN/),
    ]);
  });

  maybe(
    'exits 3 (not configured) saying how to give a token when it is missing, writing nothing to stdout',
    async () => {
      const result = await run(['--url', 'https://cairn.example.com/mcp'], {}, '');
      expect(result.code).toBe(3);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(/No session token or OAuth login[\s\S]*CAIRN_TOKEN/);
    },
  );

  maybe('exits 2 on an option it does not know, writing nothing to stdout', async () => {
    const result = await run(['--url', 'https://cairn.example.com/mcp', '--verbose'], { CAIRN_TOKEN: 't' }, '');
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/unknown option '--verbose'/);
  });
});

function delayed(ms: number): TransformStream<Uint8Array, Uint8Array> {
  return new TransformStream({
    transform: async (chunk, controller) => {
      await new Promise((resolve) => setTimeout(resolve, ms));
      controller.enqueue(chunk);
    },
  });
}

function line(message: JSONRPCMessage): string {
  return serializeMessage(message);
}

function initializeParams() {
  return { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } };
}

function callTool(id: number, name: string, args: Record<string, unknown>): JSONRPCMessage {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

function collect(stream: PassThrough, into: JSONRPCMessage[]): void {
  const buffer = new ReadBuffer();
  stream.on('data', (chunk: Buffer) => {
    buffer.append(chunk);
    for (let message = buffer.readMessage(); message; message = buffer.readMessage()) into.push(message);
  });
}

function nextMessage(stream: PassThrough): Promise<JSONRPCMessage> {
  return new Promise((resolve) => {
    const buffer = new ReadBuffer();
    const onData = (chunk: Buffer) => {
      buffer.append(chunk);
      const message = buffer.readMessage();
      if (!message) return;
      stream.off('data', onData);
      resolve(message);
    };
    stream.on('data', onData);
  });
}

/** The client end of a stdio connection, over the pipes instead of a child process. */
class PipeClientTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private readonly buffer = new ReadBuffer();

  constructor(
    private readonly fromServer: PassThrough,
    private readonly toServer: PassThrough,
  ) {}

  start(): Promise<void> {
    this.fromServer.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage()) {
        this.onmessage?.(message);
      }
    });
    return Promise.resolve();
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
    return Promise.resolve();
  }
}
