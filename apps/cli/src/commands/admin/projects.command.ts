import { type Command } from 'commander';
import { ok } from '../../api/cairn-client';
import { type ContextFactory } from '../../cli-context';
import { adminAction } from './admin-context';

/** `cairn admin projects list|create`. */
export function registerProjects(admin: Command, context: ContextFactory): void {
  const projects = admin.command('projects').description("the tenant's projects");
  projects.command('list').action(
    adminAction(context, async (session) => {
      const slug = session.tenant();
      const list = await ok(session.api.GET('/v1/tenants/{slug}/projects', { params: { path: { slug } } }));
      session.ctx.output.result(list, (view) =>
        session.ctx.output.table(
          ['slug', 'name', 'last seen', 'created'],
          view.items.map((p) => [p.slug, p.name, p.lastSeenAt, p.createdAt]),
        ),
      );
    }),
  );
  projects
    .command('create')
    .argument('<slug>', 'URL-safe identifier, e.g. web-app')
    .requiredOption('--name <name>', 'display name')
    .action(
      adminAction(context, async (session, project: string, options: { name: string }) => {
        const slug = session.tenant();
        const created = await ok(
          session.api.POST('/v1/tenants/{slug}/projects', {
            params: { path: { slug } },
            body: { slug: project, name: options.name },
          }),
        );
        session.ctx.output.result(created, (view) => `Created project ${view.slug} in ${slug}.`);
      }),
    );
}
