/**
 * Exit codes of the `cairn` command. Scripts and hooks branch on them, so each means one
 * thing and never changes: documented in `cairn --help` and docs/cli.md.
 */
export const ExitCode = {
  ok: 0,
  /** Something unexpected; the message says what. */
  failure: 1,
  /** The command line is wrong (unknown option, missing argument, bad value). */
  usage: 2,
  /** No server or token configured: run `cairn login` or set CAIRN_URL / CAIRN_TOKEN. */
  notConfigured: 3,
  /** The server refused the credentials (401) or the role/project scope (403). */
  refused: 4,
  /** What was asked for does not exist (404). */
  notFound: 5,
  /** The server rejected the input (400, 409, 413, 415, 422). */
  rejected: 6,
  /** The server could not be reached or is unavailable (network error, timeout, 5xx). */
  unavailable: 7,
  /** `cairn doctor` (or a check) found a problem; its report says which and how to fix it. */
  checkFailed: 8,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];

/** An error the command reports as one line (plus an optional hint) and an exit code; never a stack. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: ExitCode = ExitCode.failure,
    /** What to do about it, shown on its own line. */
    readonly hint?: string,
    /** Machine-readable details for `--json` output (server error code, request id, HTTP status). */
    readonly details: Readonly<Record<string, unknown>> = {},
  ) {
    super(message);
    this.name = 'CliError';
  }
}

/**
 * A failure the command has already reported in its own output (`cairn doctor`'s table or
 * JSON): only its exit code remains, so nothing more is printed and stdout stays one document.
 */
export class ReportedFailure extends CliError {}
