import { Command, CommanderError } from 'commander';
import { CliContext, type CliIo } from './cli-context';
import { CliError, ExitCode, ReportedFailure } from './cli-error';
import { registerCommands } from './commands/commands';
import { type GlobalFlags } from './settings/settings';
import { CLI_VERSION } from './version';

const EXIT_CODES_HELP = `
Exit codes:
  0  success
  1  unexpected failure
  2  usage error (unknown option, missing argument, bad value)
  3  not configured (no server or token: run \`cairn login\` or set CAIRN_URL / CAIRN_TOKEN)
  4  refused by the server (401 bad or expired token, 403 role or project scope)
  5  not found (404)
  6  rejected input (400, 409, 413, 415, 422)
  7  server unreachable or unavailable (network, timeout, 5xx, 429)
  8  a check failed (cairn doctor)

Settings come from flags, then the environment (CAIRN_URL, CAIRN_MCP_URL, CAIRN_TOKEN,
CAIRN_ADMIN_TOKEN, CAIRN_PROJECT), then the file \`cairn login\` writes
($XDG_CONFIG_HOME/cairn/config.json, mode 0600).`;

/** The command tree with its global options; each command's action gets a CliContext. */
export function buildProgram(io: CliIo): Command {
  const program = new Command('cairn')
    .description('Memory and context for teams of AI coding agents: the Cairn command line')
    .version(CLI_VERSION, '-V, --version')
    .option('--url <url>', 'Cairn REST API base URL (e.g. https://cairn.example.com)')
    .option('--mcp-url <url>', 'MCP endpoint, when it is not discoverable from the API')
    .option('--token <token>', 'session token (prefer CAIRN_TOKEN: flags show in the process list)')
    .option('--admin-token <token>', 'admin token for `cairn admin` (prefer CAIRN_ADMIN_TOKEN)')
    .option('-p, --project <slug>', 'project slug (default: CAIRN_PROJECT or the one `cairn login` kept)')
    .option('--json', 'print the result as JSON on stdout (for scripts)')
    .option('--no-color', 'no colours (also NO_COLOR=1; colours are only used on a terminal anyway)')
    .addHelpText('after', EXIT_CODES_HELP)
    .showHelpAfterError('(run with --help for usage)')
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
    })
    .exitOverride();
  registerCommands(program, (command) => new CliContext(io, command.optsWithGlobals<GlobalFlags>(), CLI_VERSION));
  return program;
}

/** Runs one command line (argv without node and script) and returns the exit code; never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const program = buildProgram(io);
  try {
    await program.parseAsync([...argv], { from: 'user' });
    return ExitCode.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end with a CommanderError of exit code 0.
      return error.exitCode === 0 ? ExitCode.ok : ExitCode.usage;
    }
    if (error instanceof ReportedFailure) return error.exitCode;
    const json = argv.includes('--json');
    const cliError =
      error instanceof CliError
        ? error
        : new CliError(`Unexpected error: ${error instanceof Error ? error.message : String(error)}`, ExitCode.failure);
    new CliContext(io, { json }, CLI_VERSION).output.error(cliError);
    return cliError.exitCode;
  }
}
