import { type Command } from 'commander';
import { ok } from '../../api/cairn-client';
import { type ContextFactory } from '../../cli-context';
import { CliError, ExitCode } from '../../cli-error';
import { integerIn } from '../input';
import { adminAction } from './admin-context';

/** `cairn admin tenants list|create|get|delete` (platform admin). */
export function registerTenants(admin: Command, context: ContextFactory): void {
  const tenants = admin.command('tenants').description('tenants (platform admin token)');
  tenants
    .command('list')
    .description('live tenants in creation order')
    .option('--limit <n>', 'at most this many (1-200)', integerIn(1, 200), 100)
    .action(
      adminAction(context, async ({ ctx, api }, options: { limit: number }) => {
        const page = await ok(api.GET('/v1/tenants', { params: { query: { limit: options.limit } } }));
        ctx.output.result(page, (view) =>
          ctx.output.table(
            ['slug', 'name', 'schema version', 'created'],
            view.items.map((t) => [t.slug, t.name, t.schemaVersion, t.createdAt]),
          ),
        );
      }),
    );
  tenants
    .command('create')
    .description('create a tenant with its own migrated schema')
    .argument('<slug>', 'URL-safe identifier, e.g. acme')
    .requiredOption('--name <name>', 'display name')
    .action(
      adminAction(context, async ({ ctx, api }, slug: string, options: { name: string }) => {
        const tenant = await ok(api.POST('/v1/tenants', { body: { slug, name: options.name } }));
        ctx.output.result(tenant, (view) => `Created tenant ${view.slug} (${view.name}).`);
      }),
    );
  tenants
    .command('get')
    .description('one tenant')
    .argument('<slug>')
    .action(
      adminAction(context, async ({ ctx, api }, slug: string) => {
        const tenant = await ok(api.GET('/v1/tenants/{slug}', { params: { path: { slug } } }));
        ctx.output.result(tenant, (view) => ctx.output.table(['', ''], Object.entries(view)));
      }),
    );
  tenants
    .command('delete')
    .description('delete a tenant: drops its schema and data, revokes its tokens, disables its users')
    .argument('<slug>')
    .option('--yes', 'confirm: this cannot be undone')
    .action(
      adminAction(context, async ({ ctx, api }, slug: string, options: { yes?: boolean }) => {
        if (!options.yes)
          throw new CliError(
            `Deleting tenant ${slug} drops all its data`,
            ExitCode.usage,
            `Run again with --yes to confirm.`,
          );
        const purge = await ok(api.DELETE('/v1/tenants/{slug}', { params: { path: { slug } } }));
        ctx.output.result(
          { slug, deleted: true, purge },
          () =>
            `Deleted tenant ${slug}: schema ${purge.schema.name} dropped with ${purge.schema.rows} rows in ` +
            `${purge.schema.tables.length} tables; ${purge.access.tokensRevoked ?? 0} tokens revoked, ` +
            `${purge.access.usersDisabled ?? 0} users disabled.`,
        );
      }),
    );
}
