import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { type Command } from 'commander';
import { ok } from '../../api/cairn-client';
import { type ContextFactory } from '../../cli-context';
import { CliError, ExitCode, ReportedFailure } from '../../cli-error';
import { integerIn, oneOf } from '../input';
import { type Collected } from './file-collector';

const SECRET_POLICIES = ['refuse', 'redact'] as const;
const TIERS = ['internal', 'summary', 'external'] as const;
/** Under the server's default request body limit (HTTP_BODY_LIMIT_BYTES, 1 MiB) once JSON-encoded. */
const DEFAULT_MAX_FILE_BYTES = 512 * 1024;
const CONCURRENCY = 4;

interface IndexOptions {
  readonly maxFileBytes: number;
  readonly secrets: (typeof SECRET_POLICIES)[number];
  readonly tier?: (typeof TIERS)[number];
  readonly dryRun?: boolean;
}

interface FileOutcome {
  readonly source: string;
  readonly status: 'indexed' | 'unchanged' | 'refused' | 'failed' | 'would-index';
  readonly chunks?: number;
  readonly replaced?: number;
  readonly secrets?: readonly { readonly type: string; readonly line: number }[];
  readonly redacted?: boolean;
  readonly error?: string;
}

/**
 * `cairn kb index <path…>`: indexes files into the project's knowledge base. Walks directories
 * respecting .gitignore, skips binaries, empty files and files over the cap, and scans every
 * file for secrets with the server's rules before upload: a file with a finding is refused (not
 * sent) unless --secrets redact, which sends it with placeholders. A progress bar on a terminal;
 * a summary at the end; exit 6 when a file was refused or failed (the others are indexed).
 */
export function registerKb(program: Command, context: ContextFactory): void {
  const kb = program.command('kb').description('the project knowledge base');
  kb.command('index')
    .description('index files into the project knowledge base (respects .gitignore, scans for secrets before upload)')
    .argument('<paths...>', 'files and directories')
    .option(
      '--max-file-bytes <n>',
      `skip larger files (default ${DEFAULT_MAX_FILE_BYTES})`,
      integerIn(1, 5_000_000),
      DEFAULT_MAX_FILE_BYTES,
    )
    .option(
      '--secrets <policy>',
      'refuse: do not send a file with a secret; redact: send it with placeholders',
      oneOf(SECRET_POLICIES),
      'refuse',
    )
    .option(
      '--tier <tier>',
      'retention tier: internal, summary or external (30, 365 and 14 days unless the installation or the tenant says otherwise)',
      oneOf(TIERS),
    )
    .option('--dry-run', 'report what would be sent, send nothing')
    .addHelpText('after', '\nExample: cairn kb index docs/ README.md --secrets redact')
    .action(async (paths: string[], options: IndexOptions, command: Command) => {
      const ctx = context(command);
      const api = options.dryRun ? undefined : await ctx.api();
      const project = api ? await ctx.project(api) : undefined;
      // Loaded here, not at start-up: the walker, the binary sniffer and the progress bar.
      const [{ collectFiles }, { startProgress }] = await Promise.all([
        import('./file-collector'),
        import('../../output/progress'),
      ]);
      const collected: Collected[] = [];
      for await (const item of collectFiles(paths, { maxFileBytes: options.maxFileBytes, cwd: process.cwd() }))
        collected.push(item);
      const files = collected.filter((item) => item.kind === 'file');
      const skipped = collected.filter((item) => item.kind === 'skipped');
      const progress = startProgress(ctx.output, files.length, 'files');
      const outcomes: FileOutcome[] = [];
      let next = 0;
      const worker = async () => {
        while (next < files.length) {
          const file = files[next++];
          outcomes.push(await indexOne(file, options, project, api));
          progress.advance(1, file.source);
        }
      };
      try {
        await Promise.all(Array.from({ length: Math.min(CONCURRENCY, files.length) }, worker));
      } finally {
        progress.stop();
      }
      outcomes.sort((a, b) => a.source.localeCompare(b.source));
      const count = (status: FileOutcome['status']) => outcomes.filter((outcome) => outcome.status === status).length;
      const skippedBy = (reason: string) =>
        skipped.filter((item) => item.kind === 'skipped' && item.reason === reason).length;
      const summary = {
        project: project ?? null,
        dryRun: options.dryRun === true,
        indexed: count('indexed'),
        unchanged: count('unchanged'),
        wouldIndex: count('would-index'),
        refused: count('refused'),
        failed: count('failed'),
        chunks: outcomes.reduce((sum, outcome) => sum + (outcome.chunks ?? 0), 0),
        skipped: {
          ignored: skippedBy('ignored'),
          binary: skippedBy('binary'),
          tooLarge: skippedBy('too-large'),
          empty: skippedBy('empty'),
          unreadable: skippedBy('unreadable'),
        },
        files: outcomes,
        skippedFiles: skipped
          .filter((item) => item.kind === 'skipped' && item.reason !== 'ignored')
          .map((item) => ({ source: item.source, reason: item.kind === 'skipped' ? item.reason : '' })),
      };
      ctx.output.result(summary, (view) => {
        const lines: string[] = [];
        for (const outcome of view.files) {
          if (outcome.status === 'refused') {
            lines.push(
              `refused  ${outcome.source}: ${outcome.secrets?.map((s) => `${s.type} on line ${s.line}`).join(', ')} (not sent; --secrets redact sends it with placeholders)`,
            );
          } else if (outcome.status === 'failed') lines.push(`failed   ${outcome.source}: ${outcome.error}`);
          else if (outcome.redacted)
            lines.push(
              `redacted ${outcome.source}: ${outcome.secrets?.map((s) => `${s.type} on line ${s.line}`).join(', ')}`,
            );
        }
        for (const item of view.skippedFiles) lines.push(`skipped  ${item.source} (${item.reason})`);
        const s = view.skipped;
        lines.push(
          (view.dryRun
            ? `Would index ${view.wouldIndex} file(s)`
            : `Indexed ${view.indexed} file(s) into ${view.project} (${view.chunks} chunks), ${view.unchanged} unchanged`) +
            `; refused ${view.refused}, failed ${view.failed}; skipped ${s.ignored} ignored, ${s.binary} binary, ${s.tooLarge} too large, ${s.empty} empty${s.unreadable ? `, ${s.unreadable} unreadable` : ''}.`,
        );
        return lines.join('\n');
      });
      if (summary.refused + summary.failed > 0) throw new ReportedFailure('files refused or failed', ExitCode.rejected);
    });
}

async function indexOne(
  file: Extract<Collected, { kind: 'file' }>,
  options: IndexOptions,
  project: string | undefined,
  api: Awaited<ReturnType<ReturnType<ContextFactory>['api']>> | undefined,
): Promise<FileOutcome> {
  let text: string;
  try {
    text = await readFile(file.path, 'utf8');
  } catch (error) {
    return { source: file.source, status: 'failed', error: (error as Error).message };
  }
  // The rule set (some 220 compiled patterns) loads with the first file, never at start-up.
  const { scanForSecrets } = await import('./secret-check');
  const secrets = scanForSecrets(text);
  if (secrets && options.secrets === 'refuse')
    return { source: file.source, status: 'refused', secrets: secrets.findings };
  const body = secrets ? secrets.redacted : text;
  const marks = secrets ? { secrets: secrets.findings, redacted: true } : {};
  if (!api || !project) return { source: file.source, status: 'would-index', ...marks };
  try {
    const result = await ok(
      api.POST('/v1/projects/{project}/kb/documents', {
        params: { path: { project } },
        body: {
          source: file.source,
          title: basename(file.source),
          text: body,
          sourceType: 'internal',
          ...(options.tier ? { retentionTier: options.tier } : {}),
        },
      }),
    );
    return {
      source: file.source,
      status: result.duplicate ? 'unchanged' : 'indexed',
      chunks: result.chunks,
      replaced: result.replaced,
      ...marks,
    };
  } catch (error) {
    if (error instanceof CliError && (error.exitCode === ExitCode.refused || error.exitCode === ExitCode.notConfigured))
      throw error;
    return { source: file.source, status: 'failed', error: (error as Error).message };
  }
}
