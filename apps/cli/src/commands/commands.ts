import { type Command } from 'commander';
import { type ContextFactory } from '../cli-context';
import { registerLogin } from './login.command';
import { registerMcp } from './mcp.command';
import { registerQueue } from './queue.command';
import { registerSync } from './sync.command';
import { registerWhoami } from './whoami.command';

/** Every command of `cairn`, in the order `cairn --help` lists them. */
export function registerCommands(program: Command, context: ContextFactory): void {
  registerLogin(program, context);
  registerWhoami(program, context);
  registerMcp(program, context);
  registerSync(program, context);
  registerQueue(program, context);
}
