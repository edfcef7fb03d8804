#!/usr/bin/env node
import { startBridge } from './bridge';
import { parseBridgeArgs, USAGE } from './options';

/** `cairn-mcp-stdio`: the command a stdio-only MCP client starts; see bridge.ts. */
async function main(): Promise<void> {
  const args = parseBridgeArgs(process.argv.slice(2), process.env);
  if (args.kind === 'help') {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  if (args.kind === 'error') {
    process.stderr.write(`cairn-mcp-stdio: ${args.message}\n\n${USAGE}\n`);
    process.exitCode = 2;
    return;
  }
  for (const warning of args.warnings) process.stderr.write(`cairn-mcp-stdio: warning: ${warning}\n`);
  const bridge = await startBridge(process.stdin, process.stdout, { url: args.url, token: args.token });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void bridge.close());
  await bridge.closed;
}

main().then(
  () => process.exit(),
  (error: unknown) => {
    process.stderr.write(`cairn-mcp-stdio: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
