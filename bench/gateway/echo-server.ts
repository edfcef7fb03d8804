/**
 * Baseline (b), run as its own process: the bare stateless SDK server on the gateway's HTTP
 * stack. Fastify 5, POST /mcp, a fresh `McpServer` (one `echo` tool registered per request)
 * and `WebStandardStreamableHTTPServerTransport` per request, the parsed body handed over as
 * the gateway hands it: no auth, no rate limit, no database, no logging. What is left is the
 * ceiling one process can reach for a tools/call through this stack.
 *
 * Usage: node dist/bench/gateway/echo-server.js <port>; prints "listening <port>" when ready.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import Fastify from 'fastify';
import { z } from 'zod';

const FORWARDED_HEADERS = ['accept', 'content-type', 'mcp-protocol-version'];

function echoServer(): McpServer {
  const server = new McpServer({ name: 'bench-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echoes its text', inputSchema: { text: z.string().max(10_000) } },
    ({ text }) => ({ content: [{ type: 'text', text }] }),
  );
  return server;
}

async function main(): Promise<void> {
  const port = Number(process.argv[2] ?? 0);
  const app = Fastify({ logger: false, bodyLimit: 1_048_576 });
  app.post('/mcp', async (request, reply) => {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    const server = echoServer();
    await server.connect(transport);
    const headers = new Headers();
    for (const name of FORWARDED_HEADERS) {
      const value = request.headers[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    const response = await transport.handleRequest(new Request('http://echo/mcp', { method: 'POST', headers }), {
      parsedBody: request.body,
    });
    void reply.status(response.status);
    response.headers.forEach((value, name) => void reply.header(name, value));
    const text = await response.text();
    void server.close();
    return reply.send(text);
  });
  await app.listen({ port, host: '127.0.0.1' });
  const address = app.server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : port}\n`);
  const stop = () => void app.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

void main();
