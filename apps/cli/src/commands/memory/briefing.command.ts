import { type Command } from 'commander';
import { ok } from '../../api/cairn-client';
import { type ContextFactory } from '../../cli-context';
import { integerIn } from '../input';

interface BriefingOptions {
  readonly budget?: number;
  readonly timezone?: string;
}

/** `cairn briefing`: recall_context over REST (what changed since this agent was last here), as compact markdown. */
export function registerBriefing(program: Command, context: ContextFactory): void {
  program
    .command('briefing')
    .description("the project's session briefing: working memory, what changed since last time, events, channel")
    .option(
      '--budget <tokens>',
      "upper bound in estimated tokens (100-32000; default the server's)",
      integerIn(100, 32_000),
    )
    .option('--timezone <zone>', "IANA time zone for the local time (default: this machine's)")
    .action(async (options: BriefingOptions, command: Command) => {
      const ctx = context(command);
      const api = await ctx.api();
      const project = await ctx.project(api);
      const timezone = options.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
      const briefing = await ok(
        api.POST('/v1/projects/{project}/context', {
          params: { path: { project } },
          body: { ...(timezone ? { timezone } : {}), ...(options.budget ? { budgetTokens: options.budget } : {}) },
        }),
      );
      ctx.output.result(briefing, (view) => view.text);
    });
}
