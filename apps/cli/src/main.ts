#!/usr/bin/env node
import { enableCompileCache } from 'node:module';
import { join } from 'node:path';
import { cliPaths } from './settings/paths';

/**
 * `cairn`: the command line of Cairn (docs/cli.md). The only place the command reads its
 * environment; everything below gets it as a parameter, so tests pass their own.
 * `cairn-mcp-stdio` (mcp-stdio.ts) calls `main` with its arguments translated.
 */
export function main(argv: readonly string[]): void {
  // eslint-disable-next-line no-restricted-properties -- the client's counterpart of libs/config: one read, passed down
  const env = process.env;
  const io = { env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr };
  // V8's compiled code kept between runs (Node 22.1+): a hook starts on every prompt, and most of
  // its start-up is compiling the same modules again.
  enableCompileCache?.(join(cliPaths(env).cacheDir, 'node-compile-cache'));
  // `cairn … | head` closes the pipe early: that ends the output, it is not an error.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });
  // `cairn hook …` loads only the hooks' modules, not the command tree (docs/hooks.md, start-up).
  const run =
    argv[0] === 'hook'
      ? import('./hooks/run-hook').then(({ runHook }) => runHook(argv.slice(1), io))
      : Promise.all([import('./program'), import('./settings/keychain')]).then(([{ runCli }, { OsKeychain }]) =>
          runCli(argv, { ...io, keychain: new OsKeychain() }),
        );
  run.then(
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
