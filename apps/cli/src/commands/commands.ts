import { type Command } from 'commander';
import { type ContextFactory } from '../cli-context';
import { registerAdmin } from './admin/admin.command';
import { registerCodeIndex } from './code-index/code-index.command';
import { registerConnect } from './connect/connect.command';
import { registerDoctor } from './doctor/doctor.command';
import { registerExec } from './exec/exec.command';
import { registerKb } from './kb/kb.command';
import { registerBriefing } from './memory/briefing.command';
import { registerRecall } from './memory/recall.command';
import { registerStore } from './memory/store.command';
import { registerWorkingMemory } from './memory/working-memory.command';
import { registerMcp } from './offline/mcp.command';
import { registerQueue } from './offline/queue.command';
import { registerSync } from './offline/sync.command';
import { registerLogin } from './session/login.command';
import { registerLogout } from './session/logout.command';
import { registerWhoami } from './session/whoami.command';
import { registerTransfer } from './transfer/transfer.command';
import { registerHook } from '../hooks/hook.command';

/** Every command of `cairn`, in the order `cairn --help` lists them. */
export function registerCommands(program: Command, context: ContextFactory): void {
  registerLogin(program, context);
  registerLogout(program, context);
  registerWhoami(program, context);
  registerDoctor(program, context);
  registerConnect(program, context);
  registerRecall(program, context);
  registerStore(program, context);
  registerWorkingMemory(program, context);
  registerBriefing(program, context);
  registerKb(program, context);
  registerCodeIndex(program, context);
  registerExec(program, context);
  registerTransfer(program, context);
  registerMcp(program, context);
  registerSync(program, context);
  registerQueue(program, context);
  registerAdmin(program, context);
  registerHook(program, context);
}
