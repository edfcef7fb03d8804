import { type Command } from 'commander';
import { ok } from '../../api/cairn-client';
import { type ContextFactory } from '../../cli-context';
import { integerIn, oneLine, textFromArgumentOrStdin } from '../input';

const KEY_PATTERN = /^[A-Za-z0-9._:/-]{1,128}$/;
const VALUE_MAX_CHARS = 4000;

function checkKey(key: string, usage: (message: string) => Error): string {
  if (!KEY_PATTERN.test(key)) throw usage(`Invalid key "${key.slice(0, 40)}": 1-128 of A-Z a-z 0-9 . _ : / -`);
  return key;
}

/**
 * `cairn remember` / `cairn forget`: the MCP tools of the same names over REST, i.e. the agent's
 * private working memory for the project (a note per key; the same key replaces it; at the cap
 * the least important move to long-term memory). `cairn remember` with no key lists the notes.
 */
export function registerWorkingMemory(program: Command, context: ContextFactory): void {
  program
    .command('remember')
    .description('keep a private working-memory note for this project (no key: list the notes)')
    .argument('[key]', 'e.g. current_task (letters, digits . _ : / -)')
    .argument('[value]', `what to keep in mind (at most ${VALUE_MAX_CHARS} characters; "-" reads stdin)`)
    .option('-i, --importance <1-5>', '1-2 ephemeral (evicted first), 3 normal, 4-5 critical', integerIn(1, 5))
    .addHelpText(
      'after',
      '\nExamples:\n  cairn remember current_task "Billing API to Fastify: tests next" -i 4\n  cairn remember            # list',
    )
    .action(
      async (
        key: string | undefined,
        value: string | undefined,
        options: { importance?: number },
        command: Command,
      ) => {
        const ctx = context(command);
        const api = await ctx.api();
        const project = await ctx.project(api);
        if (key === undefined) {
          const list = await ok(api.GET('/v1/projects/{project}/working-memory', { params: { path: { project } } }));
          ctx.output.result(list, (view) =>
            view.items.length === 0
              ? `No working-memory notes in ${project}.`
              : `${ctx.output.table(
                  ['key', 'importance', 'value', 'updated'],
                  view.items.map((item) => [item.key, item.importance, oneLine(item.value, 80), item.updatedAt]),
                )}\n${view.items.length} of ${view.cap}`,
          );
          return;
        }
        checkKey(key, (message) => ctx.usage(message));
        const text = await textFromArgumentOrStdin(value, ctx.io.stdin, { maxChars: VALUE_MAX_CHARS, what: 'value' });
        const result = await ok(
          api.PUT('/v1/projects/{project}/working-memory/{key}', {
            params: { path: { project, key } },
            body: { value: text, ...(options.importance !== undefined ? { importance: options.importance } : {}) },
          }),
        );
        ctx.output.result(result, (view) =>
          [
            `Remembered "${view.entry.key}" (importance ${view.entry.importance}) in ${project}.`,
            ...view.evicted.map((item) => `Moved "${item.key}" to long-term memory ${item.memoryId} (cap reached).`),
            ...view.redacted.map((item) => `Secret replaced by a placeholder: ${item.type} ×${item.count}.`),
          ].join('\n'),
        );
      },
    );

  program
    .command('forget')
    .description('delete one working-memory note (exit 5 when there is none); long-term memories are not affected')
    .argument('<key>', 'the note to delete')
    .action(async (key: string, _options: unknown, command: Command) => {
      const ctx = context(command);
      checkKey(key, (message) => ctx.usage(message));
      const api = await ctx.api();
      const project = await ctx.project(api);
      await ok(api.DELETE('/v1/projects/{project}/working-memory/{key}', { params: { path: { project, key } } }));
      ctx.output.result({ key, project, forgotten: true }, () => `Forgot "${key}" in ${project}.`);
    });
}
