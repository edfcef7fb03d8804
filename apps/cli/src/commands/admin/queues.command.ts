import { type Command } from 'commander';
import { ok } from '../../api/cairn-client';
import { type ContextFactory } from '../../cli-context';
import { integerIn, oneLine, oneOf } from '../input';
import { adminAction, QUEUES } from './admin-context';

type Queue = (typeof QUEUES)[number];

/**
 * `cairn admin queues list|failed|retry`: with the platform token, every queue (and `--tenant`
 * narrows failed jobs by tenant id); with a tenant admin's token, the tenant's own failed jobs.
 */
export function registerQueues(admin: Command, context: ContextFactory): void {
  const queues = admin.command('queues').description('background jobs: counts, failed jobs, retries');
  queues
    .command('list')
    .description('jobs per state per queue (platform admin)')
    .action(
      adminAction(context, async (session) => {
        const overview = await ok(session.api.GET('/v1/admin/queues'));
        const states = [...new Set(overview.queues.flatMap((q) => Object.keys(q.counts)))].sort();
        session.ctx.output.result(overview, (view) =>
          session.ctx.output.table(
            ['queue', ...states],
            view.queues.map((q) => [q.queue, ...states.map((s) => q.counts[s] ?? 0)]),
          ),
        );
      }),
    );
  queues
    .command('failed')
    .description('failed jobs, newest first')
    .option('--queue <queue>', QUEUES.join(' | '), oneOf(QUEUES))
    .option('--limit <n>', 'at most this many (1-200)', integerIn(1, 200), 50)
    .action(
      adminAction(context, async (session, options: { queue?: Queue; limit: number }) => {
        const query = { ...(options.queue ? { queue: options.queue } : {}), limit: options.limit };
        const jobs = session.platform
          ? await ok(session.api.GET('/v1/admin/jobs/failed', { params: { query } }))
          : await ok(
              session.api.GET('/v1/tenants/{slug}/jobs/failed', {
                params: { path: { slug: session.tenant() }, query },
              }),
            );
        session.ctx.output.result(jobs, (view) =>
          view.items.length === 0
            ? 'No failed jobs.'
            : session.ctx.output.table(
                ['queue', 'id', 'name', 'attempts', 'failed at', 'reason'],
                view.items.map((j) => [j.queue, j.id, j.name, j.attemptsMade, j.failedAt, oneLine(j.failedReason, 80)]),
              ),
        );
      }),
    );
  queues
    .command('retry')
    .description('retry one failed job (<queue> <id>), or every failed one with --all [--queue]')
    .argument('[queue]', QUEUES.join(' | '))
    .argument('[id]', 'the job id (cairn admin queues failed)')
    .option('--all', 'retry every failed job (of --queue)')
    .option('--queue <queue>', 'with --all: only this queue', oneOf(QUEUES))
    .action(
      adminAction(
        context,
        async (
          session,
          queue: string | undefined,
          id: string | undefined,
          options: { all?: boolean; queue?: Queue },
        ) => {
          const { ctx, api } = session;
          if (options.all) {
            if (queue || id) throw ctx.usage('--all takes no job; narrow it with --queue');
            const body = options.queue ? { queue: options.queue } : {};
            const result = session.platform
              ? await ok(api.POST('/v1/admin/jobs/failed/retry', { body }))
              : await ok(
                  api.POST('/v1/tenants/{slug}/jobs/failed/retry', {
                    params: { path: { slug: session.tenant() } },
                    body,
                  }),
                );
            ctx.output.result(result, (view) => `Retried ${view.retried} failed job(s).`);
            return;
          }
          if (!queue || !id) throw ctx.usage('Give <queue> <id>, or --all');
          const name = oneOf(QUEUES)(queue);
          const result = session.platform
            ? await ok(api.POST('/v1/admin/queues/{queue}/jobs/{id}/retry', { params: { path: { queue: name, id } } }))
            : await ok(
                api.POST('/v1/tenants/{slug}/queues/{queue}/jobs/{id}/retry', {
                  params: { path: { slug: session.tenant(), queue: name, id } },
                }),
              );
          ctx.output.result(result ?? { retried: 1 }, () => `Retried ${name} job ${id}.`);
        },
      ),
    );
}
