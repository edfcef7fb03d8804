import { type Command } from 'commander';
import { ok } from '../../api/cairn-client';
import { type ContextFactory } from '../../cli-context';
import { collectList, integerIn, oneOf } from '../input';
import { adminAction, ROLES, TOOLSETS } from './admin-context';

interface CreateOptions {
  readonly role: (typeof ROLES)[number];
  readonly projects?: string[];
  readonly agent?: string;
  readonly user?: string;
  readonly defaultProject?: string;
  readonly toolsets?: string[];
  readonly ttl?: number;
  readonly label?: string;
}

/** `cairn admin tokens list|create|revoke`; create prints the secret once (only it, as `token`, with --json). */
export function registerTokens(admin: Command, context: ContextFactory): void {
  const tokens = admin.command('tokens').description("the tenant's session tokens");
  tokens
    .command('list')
    .description('newest first; never the secrets')
    .option('--limit <n>', 'at most this many (1-200)', integerIn(1, 200), 100)
    .action(
      adminAction(context, async (session, options: { limit: number }) => {
        const slug = session.tenant();
        const page = await ok(
          session.api.GET('/v1/tenants/{slug}/tokens', { params: { path: { slug }, query: { limit: options.limit } } }),
        );
        session.ctx.output.result(page, (view) =>
          session.ctx.output.table(
            ['id', 'hint', 'role', 'agent', 'projects', 'status', 'expires'],
            view.items.map((t) => [
              t.id,
              t.hint,
              t.role,
              t.agentId,
              Array.isArray(t.projects) ? t.projects.join(', ') : t.projects,
              t.status,
              t.expiresAt,
            ]),
          ),
        );
      }),
    );
  tokens
    .command('create')
    .description('issue a session token; the secret is shown once')
    .requiredOption('--role <role>', ROLES.join(' | '), oneOf(ROLES))
    .option('--projects <slugs>', 'project slugs (repeat or comma-separate; default "*": every project)', collectList)
    .option('--agent <agentId>', 'agent identity, e.g. claude-code:alice')
    .option('--user <id>', 'the user it acts for (omit for a service token)')
    .option('--default-project <slug>', 'the project MCP tool calls use when they name none')
    .option('--toolsets <names>', `MCP toolsets (${TOOLSETS.join(', ')})`, collectList)
    .option('--ttl <seconds>', 'lifetime (default and maximum from the server)', integerIn(60, Number.MAX_SAFE_INTEGER))
    .option('--label <text>', 'a note for the token list')
    .addHelpText(
      'after',
      '\nThe token is printed once: alone on stdout, or as {"token": …, …} with --json, so a script can capture it:\n' +
        '  export CAIRN_TOKEN=$(cairn admin tokens create --role agent --projects web-app --agent claude-code:alice)',
    )
    .action(
      adminAction(context, async (session, options: CreateOptions) => {
        for (const toolset of options.toolsets ?? []) {
          if (!(TOOLSETS as readonly string[]).includes(toolset))
            throw session.ctx.usage(`Unknown toolset "${toolset}" (${TOOLSETS.join(', ')})`);
        }
        const slug = session.tenant();
        const issued = await ok(
          session.api.POST('/v1/tenants/{slug}/tokens', {
            params: { path: { slug } },
            body: {
              role: options.role,
              projects: options.projects?.length ? options.projects : '*',
              ...(options.agent ? { agentId: options.agent } : {}),
              ...(options.user ? { userId: options.user } : {}),
              ...(options.defaultProject ? { defaultProject: options.defaultProject } : {}),
              ...(options.toolsets?.length ? { toolsets: options.toolsets as (typeof TOOLSETS)[number][] } : {}),
              ...(options.ttl ? { ttlSeconds: options.ttl } : {}),
              ...(options.label ? { label: options.label } : {}),
            },
          }),
        );
        // The secret alone on stdout (a script captures it with $(…)); who it is for on stderr.
        session.ctx.output.result(issued, (view) => view.token);
        if (!session.ctx.output.json) {
          session.ctx.output.info(
            `Token ${issued.id} (${issued.role}${issued.agentId ? `, ${issued.agentId}` : ''}) for ${issued.tenant}, expires ${issued.expiresAt}; shown once.`,
          );
        }
      }),
    );
  tokens
    .command('revoke')
    .description('revoke a token; every replica refuses it from the next request')
    .argument('<id>', 'the token id (cairn admin tokens list)')
    .action(
      adminAction(context, async (session, id: string) => {
        const slug = session.tenant();
        await ok(session.api.DELETE('/v1/tenants/{slug}/tokens/{id}', { params: { path: { slug, id } } }));
        session.ctx.output.result({ id, revoked: true }, () => `Revoked token ${id}.`);
      }),
    );
}
