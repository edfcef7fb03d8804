/**
 * Bearer-token injection for the MCP conformance suite (scripts/mcp-conformance.sh), whose
 * client sends no Authorization header: listens on 127.0.0.1:<listen port> and forwards every
 * request to the gateway on 127.0.0.1:<gateway port> with `Authorization: Bearer <token>`,
 * keeping every other header (Host and Origin included, which the DNS-rebinding scenario is
 * about) and streaming both bodies (SSE answers).
 * Usage: node dist/tools/mcp-conformance/token-proxy.js <listen port> <gateway port> <token file>
 * The token comes from a file, not the command line, where any local user could read it.
 */
import { readFileSync } from 'node:fs';
import { createServer, request } from 'node:http';

function main(): void {
  const [listenPort, gatewayPort] = process.argv.slice(2, 4).map(Number);
  const tokenFile = process.argv[4];
  if (!listenPort || !gatewayPort || !tokenFile) {
    process.stderr.write('usage: token-proxy.js <listen port> <gateway port> <token file>\n');
    process.exit(2);
  }
  const token = readFileSync(tokenFile, 'utf8').trim();
  const server = createServer((incoming, outgoing) => {
    const upstream = request(
      {
        host: '127.0.0.1',
        port: gatewayPort,
        method: incoming.method,
        path: incoming.url,
        headers: { ...incoming.headers, authorization: `Bearer ${token}` },
      },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    upstream.on('error', (error) => {
      process.stderr.write(`token-proxy: ${error.message}\n`);
      if (!outgoing.headersSent) outgoing.writeHead(502);
      outgoing.end();
    });
    incoming.pipe(upstream);
  });
  server.listen(listenPort, '127.0.0.1', () => process.stderr.write(`token-proxy listening on ${listenPort}\n`));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => server.close(() => process.exit(0)));
  }
}

main();
