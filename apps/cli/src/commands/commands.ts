import { type Command } from 'commander';
import { type ContextFactory } from '../cli-context';
import { registerHook } from '../hooks/hook.command';
import { registerLogin } from './login.command';
import { registerWhoami } from './whoami.command';

/** Every command of `cairn`, in the order `cairn --help` lists them. */
export function registerCommands(program: Command, context: ContextFactory): void {
  registerLogin(program, context);
  registerWhoami(program, context);
  registerHook(program, context);
}
