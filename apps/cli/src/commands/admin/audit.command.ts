import { type Command } from 'commander';
import { ok } from '../../api/cairn-client';
import { type ContextFactory } from '../../cli-context';
import { ExitCode, ReportedFailure } from '../../cli-error';
import { integerIn } from '../input';

import { adminAction } from './admin-context';

/** `cairn admin audit list|verify`: the tenant's hash-chained log (or the platform's with --platform). */
export function registerAudit(admin: Command, context: ContextFactory): void {
  const audit = admin.command('audit').description('the audit log');
  audit
    .command('list')
    .description('newest first')
    .option('--limit <n>', 'at most this many (1-200)', integerIn(1, 200), 50)
    .option('--platform', "the platform log (platform admin) instead of the tenant's")
    .action(
      adminAction(context, async (session, options: { limit: number; platform?: boolean }) => {
        const rows = (
          items: {
            at: string;
            actor: string;
            action: string;
            target: string | null;
            outcome: string;
            status: number | null;
          }[],
        ) => items.map((e) => [e.at, e.actor, e.action, e.target, e.outcome, e.status]);
        const head = ['at', 'actor', 'action', 'target', 'outcome', 'status'];
        if (options.platform) {
          const page = await ok(session.api.GET('/v1/audit', { params: { query: { limit: options.limit } } }));
          session.ctx.output.result(page, (view) => session.ctx.output.table(head, rows(view.items)));
          return;
        }
        const slug = session.tenant();
        const page = await ok(
          session.api.GET('/v1/tenants/{slug}/audit', { params: { path: { slug }, query: { limit: options.limit } } }),
        );
        session.ctx.output.result(page, (view) => session.ctx.output.table(head, rows(view.items)));
      }),
    );
  audit
    .command('verify')
    .description("recompute the tenant's audit chain (exit 8 when it is broken)")
    .action(
      adminAction(context, async (session) => {
        const slug = session.tenant();
        const result = await ok(session.api.GET('/v1/tenants/{slug}/audit/verify', { params: { path: { slug } } }));
        session.ctx.output.result(result, (view) =>
          view.valid
            ? `Audit chain of ${slug} is intact: ${view.entries} entries${view.head ? `, head ${view.head}` : ''}.`
            : `Audit chain of ${slug} is BROKEN at ${view.firstInvalidId}: ${view.reason} (${view.entries} entries verified before it).`,
        );
        if (!result.valid) throw new ReportedFailure('audit chain broken', ExitCode.checkFailed);
      }),
    );
}
