import { type Command } from 'commander';
import { type ContextFactory } from '../../cli-context';
import { registerAudit } from './audit.command';
import { registerProjects } from './projects.command';
import { registerQueues } from './queues.command';
import { registerTenants } from './tenants.command';
import { registerTokens } from './tokens.command';
import { registerUsers } from './users.command';

/** `cairn admin …`: platform and tenant administration with the admin token. */
export function registerAdmin(program: Command, context: ContextFactory): void {
  const admin = program
    .command('admin')
    .description('administration: tenants, users, tokens, projects, audit, queues (admin token)')
    .option('--tenant <slug>', "the tenant (default: the admin token's own; needed with the platform token)")
    .addHelpText(
      'after',
      '\nThe admin token comes from --admin-token, CAIRN_ADMIN_TOKEN or the config file, else the session token.',
    );
  registerTenants(admin, context);
  registerUsers(admin, context);
  registerTokens(admin, context);
  registerProjects(admin, context);
  registerAudit(admin, context);
  registerQueues(admin, context);
}
