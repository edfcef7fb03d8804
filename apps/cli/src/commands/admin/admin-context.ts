import { type Command } from 'commander';
import { type CairnApi, ok } from '../../api/cairn-client';
import { type CliContext, type ContextFactory } from '../../cli-context';
import { CliError, ExitCode } from '../../cli-error';

export const ROLES = ['admin', 'member', 'orchestrator', 'agent', 'reader'] as const;
export const QUEUES = ['embeddings', 'summaries', 'knowledge', 'extraction', 'maintenance'] as const;
export const TOOLSETS = [
  'core',
  'context',
  'knowledge',
  'maintenance',
  'harness',
  'secrets',
  'web',
  'sharing',
  'review',
  'coordination',
] as const;

/** What an admin subcommand works with: the admin client, whether it holds the platform token, and the tenant. */
export interface AdminSession {
  readonly ctx: CliContext;
  readonly api: CairnApi;
  readonly platform: boolean;
  /** `--tenant`, else the admin token's own tenant; required by tenant commands. */
  tenant(): string;
}

/**
 * The admin client: CAIRN_ADMIN_TOKEN / --admin-token / the file, else the session token. The
 * tenant is `--tenant` or the token's own (a tenant admin's session token); the platform token
 * has none, so tenant commands need `--tenant` with it.
 */
export async function adminSession(context: ContextFactory, command: Command): Promise<AdminSession> {
  const ctx = context(command);
  const api = await ctx.adminApi();
  const me = await ok(api.GET('/v1/whoami'));
  const flag = command.optsWithGlobals<{ tenant?: string }>().tenant;
  return {
    ctx,
    api,
    platform: me.kind === 'platform',
    tenant: () => {
      const tenant = flag ?? me.tenant?.slug;
      if (!tenant)
        throw new CliError('This command needs --tenant <slug> with the platform admin token', ExitCode.usage);
      return tenant;
    },
  };
}

/** Registers an admin subcommand whose action gets an AdminSession. */
export function adminAction<A extends unknown[]>(
  context: ContextFactory,
  run: (session: AdminSession, ...args: A) => Promise<void>,
): (...args: unknown[]) => Promise<void> {
  return async (...args: unknown[]) => {
    const command = args[args.length - 1] as Command;
    const session = await adminSession(context, command);
    await run(session, ...(args.slice(0, -1) as A));
  };
}
