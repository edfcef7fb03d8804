#!/usr/bin/env node
import { runCli } from './program';
import { OsKeychain } from './settings/keychain';

/**
 * `cairn`: the command line of Cairn (docs/cli.md). The only place the command reads its
 * environment; everything below gets it as a parameter, so tests pass their own.
 * `cairn-mcp-stdio` (mcp-stdio.ts) calls `main` with its arguments translated.
 */
export function main(argv: readonly string[]): void {
  // eslint-disable-next-line no-restricted-properties -- the client's counterpart of libs/config: one read, passed down
  const env = process.env;
  // `cairn … | head` closes the pipe early: that ends the output, it is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  runCli(argv, {
    env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    keychain: new OsKeychain(),
  }).then(
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
