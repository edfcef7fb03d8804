#!/usr/bin/env node
import { runCli } from './program';

/**
 * `cairn`: the command line of Cairn (docs/cli.md). The only place the command reads its
 * environment; everything below gets it as a parameter, so tests pass their own.
 * `cairn-mcp-stdio` (mcp-stdio.ts) calls `main` with its arguments translated.
 */
export function main(argv: readonly string[]): void {
  // eslint-disable-next-line no-restricted-properties -- the client's counterpart of libs/config: one read, passed down
  const env = process.env;
  runCli(argv, { env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`cairn: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}

if (require.main === module) main(process.argv.slice(2));
