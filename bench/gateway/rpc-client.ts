/**
 * The load generator's HTTP side: raw JSON-RPC `tools/call` POSTs over keep-alive sockets
 * (node:http, one socket per concurrent client), as a stateless MCP client sends them: no
 * initialize, no session. node:http rather than fetch: the generator shares the machine's two
 * cores with the server it measures, and fetch costs it several times more CPU per call.
 */
import { Agent, request } from 'node:http';
import { LATEST_PROTOCOL_VERSION } from '@modelcontextprotocol/sdk/types.js';

export interface ToolResult {
  readonly isError?: boolean;
  readonly structuredContent?: Record<string, unknown>;
  readonly content?: { type: string; text?: string }[];
}

export class RpcClient {
  private readonly agent: Agent;
  private readonly host: string;
  private readonly port: number;
  private nextId = 1;

  constructor(
    url: string,
    private readonly token: string | undefined,
    maxSockets: number,
  ) {
    const parsed = new URL(url);
    this.host = parsed.hostname;
    this.port = Number(parsed.port);
    this.agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  }

  /** Calls a tool; anything but a 200 with a JSON-RPC result (tool errors included) throws. */
  async callTool(name: string, args: Record<string, unknown>): Promise<ToolResult> {
    const id = this.nextId++;
    const body = JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
    const { status, text } = await this.post(body);
    if (status !== 200) throw new Error(`${name}: HTTP ${status} ${text.slice(0, 300)}`);
    const message = JSON.parse(text) as { id?: unknown; result?: ToolResult; error?: { message: string } };
    if (message.error) throw new Error(`${name}: JSON-RPC error ${message.error.message}`);
    if (message.id !== id || !message.result) throw new Error(`${name}: unexpected answer ${text.slice(0, 300)}`);
    if (message.result.isError) throw new Error(`${name}: ${message.result.content?.[0]?.text ?? 'tool error'}`);
    return message.result;
  }

  private post(body: string): Promise<{ status: number; text: string }> {
    const headers: Record<string, string | number> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': LATEST_PROTOCOL_VERSION,
      'content-length': Buffer.byteLength(body),
    };
    if (this.token !== undefined) headers.authorization = `Bearer ${this.token}`;
    return new Promise((resolve, reject) => {
      const req = request(
        { host: this.host, port: this.port, path: '/mcp', method: 'POST', agent: this.agent, headers },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
