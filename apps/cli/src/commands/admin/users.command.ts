import { type Command } from 'commander';
import { ok } from '../../api/cairn-client';
import { type ContextFactory } from '../../cli-context';
import { integerIn, oneOf } from '../input';
import { adminAction, ROLES } from './admin-context';

interface UpdateOptions {
  readonly name?: string;
  readonly role?: (typeof ROLES)[number];
  readonly disable?: boolean;
  readonly enable?: boolean;
}

/** `cairn admin users list|create|update` (tenant admin, or the platform token with --tenant). */
export function registerUsers(admin: Command, context: ContextFactory): void {
  const users = admin.command('users').description("the tenant's users");
  users
    .command('list')
    .option('--limit <n>', 'at most this many (1-200)', integerIn(1, 200), 100)
    .action(
      adminAction(context, async (session, options: { limit: number }) => {
        const slug = session.tenant();
        const page = await ok(
          session.api.GET('/v1/tenants/{slug}/users', { params: { path: { slug }, query: { limit: options.limit } } }),
        );
        session.ctx.output.result(page, (view) =>
          session.ctx.output.table(
            ['id', 'email', 'name', 'role', 'disabled'],
            view.items.map((u) => [u.id, u.email, u.name, u.role, u.disabled ? 'yes' : '']),
          ),
        );
      }),
    );
  users
    .command('create')
    .argument('<email>')
    .requiredOption('--name <name>', 'display name')
    .requiredOption('--role <role>', ROLES.join(' | '), oneOf(ROLES))
    .action(
      adminAction(context, async (session, email: string, options: { name: string; role: (typeof ROLES)[number] }) => {
        const slug = session.tenant();
        const user = await ok(
          session.api.POST('/v1/tenants/{slug}/users', {
            params: { path: { slug } },
            body: { email, name: options.name, role: options.role },
          }),
        );
        session.ctx.output.result(user, (view) => `Created user ${view.email} (${view.role}) in ${slug}: ${view.id}`);
      }),
    );
  users
    .command('update')
    .description("change a user's name or role, or disable it (and all its tokens) at once")
    .argument('<id>', 'the user id')
    .option('--name <name>')
    .option('--role <role>', ROLES.join(' | '), oneOf(ROLES))
    .option('--disable', 'disable the user and all its tokens')
    .option('--enable', 'enable it again')
    .action(
      adminAction(context, async (session, id: string, options: UpdateOptions) => {
        if (options.disable && options.enable) throw session.ctx.usage('--disable and --enable exclude each other');
        const body = {
          ...(options.name ? { name: options.name } : {}),
          ...(options.role ? { role: options.role } : {}),
          ...(options.disable ? { disabled: true } : options.enable ? { disabled: false } : {}),
        };
        if (Object.keys(body).length === 0)
          throw session.ctx.usage('Nothing to change: give --name, --role, --disable or --enable');
        const slug = session.tenant();
        const user = await ok(
          session.api.PATCH('/v1/tenants/{slug}/users/{id}', { params: { path: { slug, id } }, body }),
        );
        session.ctx.output.result(
          user,
          (view) => `Updated ${view.email}: ${view.role}${view.disabled ? ', disabled' : ''}.`,
        );
      }),
    );
}
