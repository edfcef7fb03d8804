import { type Command } from 'commander';
import { type ContextFactory } from '../cli-context';
import { HOOK_USAGE } from './run-hook';

/**
 * `cairn hook <event>` in the command tree, for `cairn --help` (and for `runCli` callers).
 * main.ts hands `cairn hook …` to the hooks' own entry before loading the command tree, so a
 * hook run from Claude Code starts without it (docs/hooks.md).
 */
export function registerHook(program: Command, context: ContextFactory): void {
  program
    .command('hook <event>')
    .description('run one Claude Code hook: reads its input on stdin (used by the Claude Code plugin)')
    .addHelpText('after', `\n${HOOK_USAGE}`)
    .action(async (event: string, _options: unknown, command: Command) => {
      const { runHook } = await import('./run-hook');
      const { io } = context(command);
      const code = await runHook([event], { env: io.env, stdin: io.stdin, stdout: io.stdout, stderr: io.stderr });
      if (code !== 0) process.exitCode = code;
    });
}
