import { type Command } from 'commander';
import { ok } from '../../api/cairn-client';
import { type ContextFactory } from '../../cli-context';

/** `cairn whoami`: who the configured token is (tenant, role, agent, projects, expiry) and where each setting came from. */
export function registerWhoami(program: Command, context: ContextFactory): void {
  program
    .command('whoami')
    .description('show who the configured token is: tenant, role, agent, projects, expiry')
    .action(async (_options: unknown, command: Command) => {
      const ctx = context(command);
      const settings = await ctx.settings();
      const api = await ctx.api();
      const me = await ok(api.GET('/v1/whoami'));
      const result = {
        ...me,
        server: settings.url?.value.origin,
        sources: { url: settings.url?.source, token: settings.token?.source, project: settings.project?.source },
      };
      ctx.output.result(result, (view) =>
        ctx.output.table(
          ['', ''],
          [
            ['server', view.server],
            ['kind', view.kind],
            ['tenant', view.tenant ? `${view.tenant.slug} (${view.tenant.name})` : ''],
            ['role', view.role],
            ['agent', view.agentId],
            ['projects', Array.isArray(view.projects) ? view.projects.join(', ') : view.projects],
            ['default project', view.defaultProject],
            ['expires', view.expiresAt],
            ['token from', view.sources.token],
          ],
        ),
      );
    });
}
