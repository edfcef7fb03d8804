import { createWriteStream } from 'node:fs';
import { readFile, rename, rm } from 'node:fs/promises';
import { Readable, Writable } from 'node:stream';
import { type ReadableStream as WebReadableStream } from 'node:stream/web';
import { pipeline } from 'node:stream/promises';
import { type Command } from 'commander';
import { errorFromResponse, ok } from '../../api/cairn-client';
import { type ContextFactory } from '../../cli-context';
import { CliError, ExitCode } from '../../cli-error';
import { oneOf, readAll } from '../input';

const SECRET_FORMS = ['placeholders', 'ciphertext'] as const;
const CONFLICTS = ['fail', 'skip'] as const;
/** Read limit for an import file; the server's body limit (HTTP_BODY_LIMIT_BYTES) decides what it takes. */
const IMPORT_MAX_BYTES = 256 * 1024 * 1024;

interface ExportOptions {
  readonly output?: string;
  readonly includeTenantWide?: boolean;
  readonly secrets: (typeof SECRET_FORMS)[number];
}

interface ImportOptions {
  readonly onConflict: (typeof CONFLICTS)[number];
}

/** Counts the lines passing through, for the progress counter and the summary. */
function lineCounter(onLines: (count: number) => void): (chunk: Uint8Array) => void {
  return (chunk) => {
    let lines = 0;
    for (const byte of chunk) if (byte === 0x0a) lines += 1;
    if (lines) onLines(lines);
  };
}

/**
 * `cairn export` / `cairn import`: the project's memories as JSON Lines, exactly as the server's
 * export and import routes speak them (one memory per line, ids and timestamps kept; an import
 * is all lines or nothing). Export streams to a file (written whole or not at all) or stdout;
 * import reads a file or stdin, checks every line is JSON first, then sends it in one request.
 */
export function registerTransfer(program: Command, context: ContextFactory): void {
  program
    .command('export')
    .description("stream the project's live memories as JSON Lines to a file or stdout")
    .option('-o, --output <file>', 'write here (whole or not at all) instead of stdout')
    .option('--include-tenant-wide', 'also the team memories without a project')
    .option(
      '--secrets <form>',
      'placeholders (default) or ciphertext (admins: sealed originals, for a restore)',
      oneOf(SECRET_FORMS),
      'placeholders',
    )
    .action(async (options: ExportOptions, command: Command) => {
      const ctx = context(command);
      const api = await ctx.api({ timeoutMs: 600_000 });
      const project = await ctx.project(api);
      const { response, error } = await api.GET('/v1/projects/{project}/memories/export', {
        params: {
          path: { project },
          query: { includeTenantWide: options.includeTenantWide ? 'true' : 'false', secrets: options.secrets },
        },
        parseAs: 'stream',
      });
      if (!response.ok || !response.body) throw errorFromResponse(response, error);
      let lines = 0;
      const { startCounter } = await import('../../output/progress');
      const counter = startCounter(ctx.output, 'memories');
      const count = lineCounter((n) => {
        lines += n;
        counter.advance(n);
      });
      const source = Readable.fromWeb(response.body as WebReadableStream<Uint8Array>);
      source.on('data', count);
      try {
        if (options.output) {
          const temporary = `${options.output}.cairn-${process.pid}.tmp`;
          try {
            await pipeline(source, createWriteStream(temporary, { mode: 0o600 }));
            await rename(temporary, options.output);
          } catch (failure) {
            await rm(temporary, { force: true });
            throw failure;
          }
        } else {
          await pipeline(
            source,
            new Writable({ write: (chunk: Buffer, _encoding, done) => void ctx.io.stdout.write(chunk, () => done()) }),
          );
        }
      } finally {
        counter.stop();
      }
      // Line 1 is the format header ({"format":"cairn.memories",…}); each other line is a memory.
      const memories = Math.max(0, lines - 1);
      if (options.output) {
        ctx.output.result(
          { project, memories, file: options.output },
          (view) => `Exported ${view.memories} memories of ${view.project} to ${view.file}.`,
        );
      } else {
        ctx.output.info(`Exported ${memories} memories of ${project}.`);
      }
    });

  program
    .command('import')
    .description('import a JSON Lines export into the project: every line valid, or nothing written')
    .argument('[file]', 'the export file; "-" or nothing reads stdin')
    .option(
      '--on-conflict <mode>',
      'fail (default: a line whose id exists with other content fails the import) or skip',
      oneOf(CONFLICTS),
      'fail',
    )
    .action(async (file: string | undefined, options: ImportOptions, command: Command) => {
      const ctx = context(command);
      let text: string;
      if (file && file !== '-') {
        text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
          throw new CliError(
            `Cannot read ${file}: ${error.code === 'ENOENT' ? 'no such file' : error.message}`,
            ExitCode.usage,
          );
        });
      } else if (ctx.io.stdin.isTTY) {
        throw ctx.usage(
          'No file given',
          'cairn import memories.ndjson, or pipe it in: cairn export | cairn import --project other',
        );
      } else text = await readAll(ctx.io.stdin, IMPORT_MAX_BYTES, 'the import');
      const lines = text.split('\n').filter((line) => line.trim() !== '');
      if (lines.length === 0) throw ctx.usage('The import is empty');
      const { startProgress } = await import('../../output/progress');
      const progress = startProgress(ctx.output, lines.length, 'lines checked');
      const bad: number[] = [];
      lines.forEach((line, index) => {
        try {
          const value: unknown = JSON.parse(line);
          if (typeof value !== 'object' || value === null || Array.isArray(value)) bad.push(index + 1);
        } catch {
          bad.push(index + 1);
        }
        progress.advance();
      });
      progress.stop();
      if (bad.length > 0) {
        throw new CliError(
          `Line${bad.length > 1 ? 's' : ''} ${bad.slice(0, 10).join(', ')}${bad.length > 10 ? ` and ${bad.length - 10} more` : ''} ${bad.length > 1 ? 'are' : 'is'} not a JSON object; nothing was sent`,
          ExitCode.usage,
        );
      }
      const api = await ctx.api({ timeoutMs: 600_000 });
      const project = await ctx.project(api);
      const memories = lines.length - (lines[0]?.includes('"format"') ? 1 : 0);
      ctx.output.info(`Importing ${memories} memories into ${project}…`);
      const result = await ok(
        api.POST('/v1/projects/{project}/memories/import', {
          params: { path: { project }, query: { onConflict: options.onConflict } },
          body: `${lines.join('\n')}\n` as never,
          bodySerializer: (body: unknown) => body as string,
          headers: { 'content-type': 'application/x-ndjson' },
        }),
      );
      ctx.output.result({ project, memories, ...result }, (view) =>
        [
          `Imported ${view.imported} of ${view.memories} memories into ${view.project}; ${view.unchanged.length} already there; ${view.relations} relations.`,
          ...(view.conflicts.length
            ? [
                `Skipped ${view.conflicts.length} conflicting line(s): ${view.conflicts
                  .slice(0, 10)
                  .map((c) => c.line)
                  .join(', ')}`,
              ]
            : []),
          ...view.redacted.map((item) => `Secret replaced by a placeholder: ${item.type} ×${item.count}.`),
        ].join('\n'),
      );
    });
}
