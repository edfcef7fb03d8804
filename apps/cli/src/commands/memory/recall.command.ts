import { type Command } from 'commander';
import { ok } from '../../api/cairn-client';
import { type components } from '../../api/openapi';
import { type ContextFactory } from '../../cli-context';
import { collectList, integerIn, isoDateTime, oneLine, oneOf } from '../input';

type RecallBody = components['schemas']['RecallDto'];
type Category = NonNullable<NonNullable<RecallBody['filters']>['categories']>[number];

const MODES = ['hybrid', 'keyword', 'semantic'] as const;
const SCOPES = ['project', 'tenant', 'all'] as const;
const CATEGORIES = [
  'fact',
  'preference',
  'decision',
  'pattern',
  'bug',
  'todo',
  'person',
  'architecture',
  'other',
] as const;
const QUERY_MAX_CHARS = 4000;

interface RecallOptions {
  readonly mode: (typeof MODES)[number];
  readonly limit: number;
  readonly explain?: boolean;
  readonly category?: string[];
  readonly tag?: string[];
  readonly scope?: (typeof SCOPES)[number];
  readonly agent?: string;
  readonly since?: string;
  readonly until?: string;
  readonly allProjects?: boolean;
}

/** `cairn recall "<question>"`: memory_recall over REST, in the project or across every readable one. */
export function registerRecall(program: Command, context: ContextFactory): void {
  program
    .command('recall')
    .description('recall the memories most relevant to a question (hybrid, keyword or semantic)')
    .argument('<question>', `a question or keywords (at most ${QUERY_MAX_CHARS} characters)`)
    .option('--mode <mode>', MODES.join(' | '), oneOf(MODES), 'hybrid')
    .option('-n, --limit <n>', 'how many results (1-50)', integerIn(1, 50), 10)
    .option('--explain', "each result's keyword and semantic rank, boosts and final score")
    .option(
      '--category <category>',
      `only these categories (repeat or comma-separate: ${CATEGORIES.join(', ')})`,
      collectList,
    )
    .option('--tag <tag>', 'only memories with these tags (repeatable)', collectList)
    .option('--scope <scope>', 'project, tenant (team memories) or all', oneOf(SCOPES))
    .option('--agent <agentId>', 'only memories written by this agent')
    .option('--since <date>', 'created at or after (ISO 8601)', isoDateTime)
    .option('--until <date>', 'created before (ISO 8601)', isoDateTime)
    .option('--all-projects', 'search every project the token may read')
    .addHelpText('after', '\nExample: cairn recall "how do we deploy the api" --limit 5 --explain')
    .action(async (question: string, options: RecallOptions, command: Command) => {
      const ctx = context(command);
      const query = question.trim();
      if (!query) throw ctx.usage('The question is empty');
      if (query.length > QUERY_MAX_CHARS)
        throw ctx.usage(`The question has ${query.length} characters; at most ${QUERY_MAX_CHARS}`);
      for (const category of options.category ?? []) {
        if (!(CATEGORIES as readonly string[]).includes(category))
          throw ctx.usage(`Unknown category "${category}" (${CATEGORIES.join(', ')})`);
      }
      const filters: NonNullable<RecallBody['filters']> = {
        ...(options.scope ? { scope: options.scope } : {}),
        ...(options.agent ? { authorAgentId: options.agent } : {}),
        ...(options.since ? { createdAfter: options.since } : {}),
        ...(options.until ? { createdBefore: options.until } : {}),
        ...(options.category?.length ? { categories: options.category as Category[] } : {}),
        ...(options.tag?.length ? { tags: options.tag } : {}),
      };
      const body: RecallBody = {
        query,
        mode: options.mode,
        limit: options.limit,
        explain: options.explain === true,
        ...(Object.keys(filters).length ? { filters } : {}),
      };
      const api = await ctx.api();
      const result = options.allProjects
        ? await ok(api.POST('/v1/memories/search', { body }))
        : await ok(
            api.POST('/v1/projects/{project}/memories/search', {
              params: { path: { project: await ctx.project(api) } },
              body,
            }),
          );
      ctx.output.result(result, (view) => {
        if (view.results.length === 0)
          return `No memories match.${view.report.notes.length ? `\n${view.report.notes.join('\n')}` : ''}`;
        const rows = view.results.map((hit) => [
          hit.score.toFixed(3),
          hit.memory.id.slice(0, 8),
          ...(options.allProjects ? [hit.memory.project ?? '(team)'] : []),
          hit.memory.category,
          oneLine(hit.memory.content, 90),
          ...(options.explain && hit.explain
            ? [
                `kw ${hit.explain.keyword?.rank ?? '-'} · sem ${hit.explain.semantic?.rank ?? '-'} · final ${hit.explain.final.toFixed(3)}`,
              ]
            : []),
        ]);
        const head = [
          'score',
          'id',
          ...(options.allProjects ? ['project'] : []),
          'category',
          'memory',
          ...(options.explain ? ['explain'] : []),
        ];
        const mode =
          view.report.mode === view.report.requestedMode
            ? view.report.mode
            : `${view.report.mode} (asked ${view.report.requestedMode})`;
        return `${ctx.output.table(head, rows)}\n${view.results.length} result(s), ${mode}${view.report.notes.length ? `\n${view.report.notes.join('\n')}` : ''}`;
      });
    });
}
