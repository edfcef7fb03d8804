import { randomUUID } from 'node:crypto';
import { type Command } from 'commander';
import { ok } from '../../api/cairn-client';
import { type components } from '../../api/openapi';
import { type ContextFactory } from '../../cli-context';
import { collectList, integerIn, isoDateTime, numberIn, oneLine, oneOf, textFromArgumentOrStdin } from '../input';

type StoreBody = components['schemas']['StoreMemoryDto'];

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
const SCOPES = ['private', 'project', 'team', 'tenant'] as const;
/** The server's own cap (MEMORY_CONTENT_MAX_CHARS may be lower; it answers 400 then). */
const CONTENT_MAX_CHARS = 100_000;

interface StoreOptions {
  readonly category: StoreBody['category'];
  readonly tag?: string[];
  readonly keyword?: string[];
  readonly importance?: number;
  readonly confidence?: number;
  readonly scope?: StoreBody['scope'];
  readonly pin?: boolean;
  readonly source?: string;
  readonly line?: number;
  readonly supersedes?: string[];
  readonly occurredAt?: string;
  readonly sensitive?: boolean;
  readonly idempotencyKey?: string;
}

/** `cairn store [content|-]`: memory_store over REST; content from the argument or standard input. */
export function registerStore(program: Command, context: ContextFactory): void {
  program
    .command('store')
    .description('store a long-term memory (content as an argument, or piped on stdin)')
    .argument('[content]', 'the fact, in one or a few sentences; "-" or nothing with a pipe reads stdin')
    .option('-c, --category <category>', CATEGORIES.join(' | '), oneOf(CATEGORIES), 'fact')
    .option('-t, --tag <tag>', 'a label for filtering (repeatable, or comma-separated)', collectList)
    .option('-k, --keyword <word>', 'a search-expansion term a future question might use (repeatable)', collectList)
    .option('-i, --importance <1-5>', '1 trivia … 5 critical', integerIn(1, 5))
    .option('--confidence <0-1>', 'how sure (default 0.8)', numberIn(0, 1))
    .option('--scope <scope>', 'private, project, team or tenant (default: the tenant setting)', oneOf(SCOPES))
    .option('--pin', 'exempt from decay and pruning')
    .option('--source <path>', 'the file the fact comes from, relative to the repository root')
    .option('--line <n>', 'line in --source', integerIn(1, 10_000_000))
    .option('--supersedes <id>', 'ids of memories this one replaces (repeatable)', collectList)
    .option('--occurred-at <date>', 'when what it describes happened (ISO 8601)', isoDateTime)
    .option('--sensitive', 'keep the whole content sealed; searchable text is a placeholder')
    .option(
      '--idempotency-key <key>',
      'retry-safe: the same key within 24 h answers the first store (default: a new one per run)',
    )
    .addHelpText(
      'after',
      '\nExamples:\n  cairn store "Deploys go through the staging cluster first" -c decision -t deploy\n  git log -1 --format=%B | cairn store - -c decision',
    )
    .action(async (content: string | undefined, options: StoreOptions, command: Command) => {
      const ctx = context(command);
      const text = await textFromArgumentOrStdin(content, ctx.io.stdin, {
        maxChars: CONTENT_MAX_CHARS,
        what: 'memory content',
      });
      if (options.line !== undefined && !options.source) throw ctx.usage('--line needs --source');
      const body: StoreBody = {
        content: text,
        category: options.category,
        ...(options.tag?.length ? { tags: options.tag } : {}),
        ...(options.keyword?.length ? { keywords: options.keyword } : {}),
        ...(options.importance !== undefined ? { importance: options.importance } : {}),
        ...(options.confidence !== undefined ? { confidence: options.confidence } : {}),
        ...(options.scope ? { scope: options.scope } : {}),
        ...(options.pin ? { pinned: true } : {}),
        ...(options.source
          ? { source: { path: options.source, ...(options.line ? { line: options.line } : {}) } }
          : {}),
        ...(options.supersedes?.length ? { supersedes: options.supersedes } : {}),
        ...(options.occurredAt ? { occurredAt: options.occurredAt } : {}),
        ...(options.sensitive ? { sensitive: true } : {}),
      };
      const api = await ctx.api();
      const project = await ctx.project(api);
      const result = await ok(
        api.POST('/v1/projects/{project}/memories', {
          params: { path: { project }, header: { 'Idempotency-Key': options.idempotencyKey ?? randomUUID() } },
          body,
        }),
      );
      ctx.output.result(result, (view) =>
        [
          `Stored ${view.memory.id} in ${view.memory.project ?? 'the tenant'} (${view.memory.category}, importance ${view.memory.importance}, ${view.memory.scope}).`,
          ...view.redacted.map((item) => `Secret replaced by a placeholder: ${item.type} ×${item.count}.`),
          ...view.warnings.map(
            (warning) => `May contradict ${warning.memoryId}: ${oneLine(warning.content, 80)} (${warning.reason})`,
          ),
        ].join('\n'),
      );
    });
}
