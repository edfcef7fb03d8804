import { type Command } from 'commander';
import { type ContextFactory } from '../../cli-context';
import { ExitCode, ReportedFailure } from '../../cli-error';
import { type Check } from './doctor-checks';

const MARK: Record<Check['status'], string> = { ok: 'ok', warn: 'warn', fail: 'FAIL', skip: 'skip' };

/**
 * `cairn doctor`: reachability, TLS, token validity and expiry, role and projects, search mode and
 * model, clock skew, and the MCP endpoint with its protocol version; each problem with its fix.
 * Exit 8 when any check fails (warnings do not fail); `--json` gives every check.
 */
export function registerDoctor(program: Command, context: ContextFactory): void {
  program
    .command('doctor')
    .description('check the connection to Cairn end to end and say how to fix what is wrong (exit 8 on a failure)')
    .action(async (_options: unknown, command: Command) => {
      const ctx = context(command);
      const { clockSkew, identity, mcp, reachability, search, transportSecurity } = await import('./doctor-checks');
      const settings = await ctx.settings();
      const checks: Check[] = [];
      const url = settings.url?.value;
      checks.push(
        url
          ? { name: 'server', status: 'ok', detail: `${url.href} (from ${settings.url?.source})` }
          : {
              name: 'server',
              status: 'fail',
              detail: 'no server configured',
              fix: 'cairn login --url https://… (or set CAIRN_URL)',
            },
      );
      if (url) {
        const [reach, tls] = await Promise.all([reachability(ctx, url), transportSecurity(url)]);
        checks.push(reach.check, tls);
        const reachable = reach.check.status !== 'fail';
        if (!settings.token) {
          checks.push({
            name: 'token',
            status: 'fail',
            detail: 'no session token configured',
            fix: 'cairn login --token … (or set CAIRN_TOKEN)',
          });
        } else if (reachable) {
          const api = ctx.client(url, settings.token.value, 10_000);
          const who = await identity(api, settings);
          checks.push(...who.checks);
          checks.push(clockSkew(who.date ?? reach.date, Date.now()));
          if (who.valid) {
            checks.push(await search(api));
            checks.push(...(await mcp(ctx, settings.token.value)));
          }
        }
      }
      const failed = checks.filter((item) => item.status === 'fail').length;
      const warned = checks.filter((item) => item.status === 'warn').length;
      ctx.output.result({ ok: failed === 0, failed, warnings: warned, checks }, (view) => {
        const rows = view.checks.map((item) => [
          item.status === 'ok'
            ? ctx.output.c.green(MARK.ok)
            : item.status === 'fail'
              ? ctx.output.c.red(MARK.fail)
              : item.status === 'warn'
                ? ctx.output.c.yellow(MARK.warn)
                : ctx.output.c.dim(MARK.skip),
          item.name,
          item.fix ? `${item.detail}\n→ ${item.fix}` : item.detail,
        ]);
        const summary = view.ok
          ? `All checks passed${view.warnings ? ` (${view.warnings} warning${view.warnings > 1 ? 's' : ''})` : ''}.`
          : `${view.failed} check${view.failed > 1 ? 's' : ''} failed.`;
        return `${ctx.output.table(['', 'check', 'result'], rows)}\n${summary}`;
      });
      if (failed > 0) throw new DoctorFailed(failed);
    });
}

/** Ends `cairn doctor` with exit 8 after its report (already printed: no second message). */
export class DoctorFailed extends ReportedFailure {
  constructor(failed: number) {
    super(`${failed} check(s) failed`, ExitCode.checkFailed);
  }
}
