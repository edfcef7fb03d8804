import { type Command, InvalidArgumentError } from 'commander';
import { ok, type CairnApi } from '../../api/cairn-client';
import { type CliContext, type ContextFactory } from '../../cli-context';
import { CliError, type ExitCode, ReportedFailure } from '../../cli-error';
import { collectList, integerIn, numberIn, oneOf } from '../input';
import { ENV_NAME, strippedEnvironment } from './exec-env';
import { type LimitedRun, runLimited, signalExitCode } from './run-limited';
import {
  bubblewrapArgs,
  describeSandbox,
  detectSandbox,
  findExecutable,
  type Sandbox,
  type SandboxOptions,
} from './sandbox';

/**
 * Exit codes of `cairn exec` besides the command's own (GNU timeout's and the shell's): the
 * command's code passes through, so these sit above what programs normally return.
 */
export const EXEC_EXIT = {
  timedOut: 124,
  /** cairn exec refused to run it: --require-sandbox without a working sandbox. */
  refused: 125,
  notExecutable: 126,
  notFound: 127,
} as const;

const SANDBOX_CHOICES = ['auto', 'bubblewrap', 'none'] as const;
const TIERS = ['internal', 'summary', 'external'] as const;
const DEFAULT_TIMEOUT_S = 120;
const DEFAULT_GRACE_S = 5;
const DEFAULT_MAX_OUTPUT = 256 * 1024;
/** Under the server's 1 MiB request body once JSON-encoded, as `cairn kb index` keeps files. */
const MAX_MAX_OUTPUT = 512 * 1024;
export const NO_SANDBOX_WARNING = "no OS sandbox (bubblewrap/nsjail) found: the command runs with your user's rights";

interface ExecOptions {
  readonly timeout: number;
  readonly killAfter: number;
  readonly maxOutput: number;
  readonly env: readonly string[];
  readonly network?: boolean;
  readonly readOnlyCwd?: boolean;
  readonly shareHome?: boolean;
  readonly sandbox: (typeof SANDBOX_CHOICES)[number];
  readonly requireSandbox?: boolean;
  readonly capture: boolean;
  readonly tier?: (typeof TIERS)[number];
}

/**
 * `cairn exec -- <command…>`: runs a command on the developer's machine, never on the server
 * (docs/cli.md, "Why the server never runs code"), with a stripped environment, a time limit
 * and an output cap, in bubblewrap when it works here, and captures its output into the project
 * knowledge base after scanning it for secrets locally.
 */
export function registerExec(program: Command, context: ContextFactory): void {
  program
    .command('exec')
    .description(
      'run a command with limits (in bubblewrap when available) and capture its output into the knowledge base',
    )
    .argument('<command...>', 'the command and its arguments (after --)')
    .option(
      '--timeout <seconds>',
      `time limit (default ${DEFAULT_TIMEOUT_S})`,
      numberIn(0.1, 86_400),
      DEFAULT_TIMEOUT_S,
    )
    .option(
      '--kill-after <seconds>',
      `after the time limit, SIGTERM; SIGKILL this much later (default ${DEFAULT_GRACE_S})`,
      numberIn(0, 600),
      DEFAULT_GRACE_S,
    )
    .option(
      '--max-output <bytes>',
      `captured stdout+stderr at most, its beginning and end kept (default ${DEFAULT_MAX_OUTPUT})`,
      integerIn(1_000, MAX_MAX_OUTPUT),
      DEFAULT_MAX_OUTPUT,
    )
    .option('--env <name>', 'pass this environment variable through (repeatable; names only)', envNames, [])
    .option('--network', 'allow network access inside the sandbox')
    .option('--read-only-cwd', 'the working directory is read-only inside the sandbox')
    .option('--share-home', 'show the home directory (read-only) inside the sandbox; hidden by default')
    .option('--sandbox <kind>', 'auto, bubblewrap (required) or none', oneOf(SANDBOX_CHOICES), 'auto')
    .option('--require-sandbox', 'refuse to run without a working OS sandbox')
    .option('--no-capture', 'do not send the output to the knowledge base')
    .option('--tier <tier>', 'retention tier of the captured document', oneOf(TIERS))
    .addHelpText(
      'after',
      `
Exit code: the command's own; ${EXEC_EXIT.timedOut} timed out; ${EXEC_EXIT.refused} refused (no sandbox with --require-sandbox);
${EXEC_EXIT.notExecutable} not executable; ${EXEC_EXIT.notFound} not found; 128+n killed by signal n. Before the command
runs, the usual codes (2 usage, 3 not configured…) for cairn's own problems.

Example: cairn exec --timeout 600 --env NODE_OPTIONS -- npm test`,
    )
    .action(async (argv: string[], options: ExecOptions, command: Command) => {
      const ctx = context(command);
      // Settings and project first: a missing token fails before the command runs, not after.
      const api = options.capture ? await ctx.api() : undefined;
      const project = api ? await ctx.project(api) : undefined;
      const { env, missing } = strippedEnvironment(ctx.io.env, options.env);
      if (missing.length > 0) ctx.output.warn(`--env ${missing.join(', ')}: not set, not passed`);
      const cwd = process.cwd();
      const [name, ...args] = argv;
      const resolved = findExecutable(name, env.PATH);
      if (!resolved) fail(ctx, `${name}: command not found on PATH`, EXEC_EXIT.notFound);

      const home = ctx.io.env.HOME;
      const sandboxOptions: SandboxOptions = {
        cwd,
        readOnlyCwd: options.readOnlyCwd === true,
        network: options.network === true,
        hide: [
          ...(options.shareHome || !home ? [] : [home]),
          ...(ctx.io.env.XDG_RUNTIME_DIR ? [ctx.io.env.XDG_RUNTIME_DIR] : []),
          ctx.paths.configDir,
        ],
      };
      const sandbox: Sandbox =
        options.sandbox === 'none'
          ? { kind: 'none', reason: 'turned off with --sandbox none' }
          : await detectSandbox(env.PATH, sandboxOptions);
      if (sandbox.kind === 'none') {
        if (options.requireSandbox || options.sandbox === 'bubblewrap')
          fail(ctx, `no working OS sandbox, so nothing was run: ${sandbox.reason}`, EXEC_EXIT.refused);
        ctx.output.warn(
          options.sandbox === 'none'
            ? "no OS sandbox (--sandbox none): the command runs with your user's rights"
            : `${NO_SANDBOX_WARNING} (${sandbox.reason})`,
        );
      }

      // A toolchain in the home directory (nvm, pyenv) or /tmp is not there inside: say why bwrap will not find it.
      const hiddenIn = [...sandboxOptions.hide, '/tmp'].find((dir) => resolved.startsWith(`${dir}/`));
      if (sandbox.kind === 'bubblewrap' && hiddenIn)
        ctx.output.warn(
          `${resolved} is under ${hiddenIn}, hidden inside the sandbox (--share-home shows the home directory)`,
        );

      const run = await runLimited({
        command: sandbox.kind === 'bubblewrap' ? sandbox.path : resolved,
        args: sandbox.kind === 'bubblewrap' ? bubblewrapArgs(sandboxOptions, [resolved, ...args]) : args,
        cwd,
        env,
        timeoutMs: options.timeout * 1000,
        graceMs: options.killAfter * 1000,
        maxOutputBytes: options.maxOutput,
        // With --json stdout carries only the result, so the command's stdout goes to stderr.
        stdout: ctx.output.json ? ctx.io.stderr : ctx.io.stdout,
        stderr: ctx.io.stderr,
      });
      const exitCode = exitCodeOf(run);
      const status = statusOf(run, options.timeout);
      if (run.timedOut) ctx.output.warn(`timed out after ${options.timeout} s: the process group was killed`);
      // Not a result: with --json, one document on stdout, and a command that never started has none.
      if (run.spawnError) fail(ctx, `${name}: ${run.spawnError.message}`, EXEC_EXIT.notExecutable);
      if (options.capture && run.output.cutBytes > 0)
        ctx.output.info(`cairn exec: ${run.output.cutBytes} bytes of output cut from the capture (--max-output)`);

      const captured =
        api && project
          ? await capture(ctx, api, project, options, {
              argv,
              cwd,
              status,
              run,
              sandbox: describeSandbox(sandbox, sandboxOptions),
            })
          : undefined;
      ctx.output.result(
        {
          exitCode,
          status,
          durationMs: run.durationMs,
          sandbox: sandbox.kind,
          outputBytes: run.output.total,
          cutBytes: run.output.cutBytes,
          document: captured?.id ?? null,
          redactedSecrets: captured?.secrets ?? 0,
        },
        () => '',
      );
      if (exitCode !== 0) throw new ReportedFailure(status, exitCode as ExitCode);
    });
}

function envNames(value: string, previous: readonly string[]): string[] {
  const names = collectList(value, previous);
  const bad = names.find((name) => !ENV_NAME.test(name));
  if (bad)
    throw new InvalidArgumentError(
      `"${bad}" is not a variable name (give the name; its value is read from your environment)`,
    );
  return names;
}

/** Reports a refusal on stderr and ends with an exec exit code (outside cairn's own table, on purpose). */
function fail(ctx: CliContext, message: string, code: number): never {
  ctx.output.error(new CliError(message));
  throw new ReportedFailure(message, code as ExitCode);
}

function exitCodeOf(run: LimitedRun): number {
  if (run.timedOut) return EXEC_EXIT.timedOut;
  if (run.interrupted) return signalExitCode(run.interrupted);
  if (run.spawnError) return EXEC_EXIT.notExecutable;
  if (run.signal) return signalExitCode(run.signal);
  return run.exitCode ?? 1;
}

function statusOf(run: LimitedRun, timeoutS: number): string {
  if (run.timedOut) return `timed out after ${timeoutS} s; process group killed`;
  if (run.interrupted) return `interrupted by ${run.interrupted}; process group killed`;
  if (run.signal) return `killed by ${run.signal}`;
  return `exit code ${run.exitCode}`;
}

interface CaptureFacts {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly status: string;
  readonly run: LimitedRun;
  readonly sandbox: string;
}

/**
 * Sends the run to the knowledge base as one document. The command line and the output are
 * scanned with the server's own rules here first, and every finding replaced by a placeholder,
 * so a secret the command printed never leaves the machine (the server scans again on write).
 * A failed upload is a warning: the command's exit code is what the caller waits for.
 */
async function capture(
  ctx: CliContext,
  api: CairnApi,
  project: string,
  options: ExecOptions,
  facts: CaptureFacts,
): Promise<{ id: string; secrets: number } | undefined> {
  const { scanForSecrets } = await import('../kb/secret-check');
  const commandLine = facts.argv.map(shellQuote).join(' ');
  const scannedCommand = scanForSecrets(commandLine);
  const shownCommand = scannedCommand?.redacted ?? commandLine;
  const output = facts.run.output;
  const scannedOutput = scanForSecrets(output.text());
  const text = [
    `$ ${shownCommand}`,
    `status: ${facts.status}`,
    `duration: ${(facts.run.durationMs / 1000).toFixed(2)} s`,
    `sandbox: ${facts.sandbox}`,
    `directory: ${facts.cwd}`,
    `output: ${output.total} bytes${output.cutBytes > 0 ? `, ${output.cutBytes} cut from the middle (--max-output ${options.maxOutput})` : ''}`,
    '',
    scannedOutput?.redacted ?? output.text(),
  ].join('\n');
  const secrets = (scannedCommand?.findings.length ?? 0) + (scannedOutput?.findings.length ?? 0);
  if (secrets > 0) ctx.output.warn(`${secrets} secret(s) in the output replaced by placeholders before upload`);
  const flat = shownCommand.replace(/\s+/g, ' ');
  try {
    const result = await ok(
      api.POST('/v1/projects/{project}/kb/documents', {
        params: { path: { project } },
        body: {
          // One source per command line: running it again replaces the earlier capture.
          source: `exec:${flat.slice(0, 300)}`,
          title: `Output of \`${flat.slice(0, 120)}\``,
          text,
          sourceType: 'internal',
          ...(options.tier ? { retentionTier: options.tier } : {}),
        },
      }),
    );
    ctx.output.info(`cairn exec: output captured in ${project} as document ${result.document.id}`);
    return { id: result.document.id, secrets };
  } catch (error) {
    ctx.output.warn(`output not captured: ${(error as Error).message}`);
    return undefined;
  }
}

function shellQuote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
