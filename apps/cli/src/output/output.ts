import Table from 'cli-table3';
import { createColors } from 'picocolors';
import { type CliError } from '../cli-error';
import { type Environment } from '../settings/paths';

type Colors = ReturnType<typeof createColors>;

export interface OutputStreams {
  readonly stdout: NodeJS.WritableStream & { isTTY?: boolean };
  readonly stderr: NodeJS.WritableStream & { isTTY?: boolean };
}

export interface OutputOptions {
  /** `--json`: one JSON document on stdout per command, nothing else there. */
  readonly json: boolean;
  /** `--no-color` sets false; otherwise colours only when the stream is a TTY and NO_COLOR is unset. */
  readonly color?: boolean;
  readonly env: Environment;
}

/**
 * Where a command writes. Results go to stdout: JSON with `--json` (for scripts and hooks),
 * otherwise text and tables for people. Diagnostics, warnings and progress go to stderr, so a
 * pipe of stdout only ever carries the result. Colour only on a terminal, never with NO_COLOR.
 */
export class Output {
  readonly json: boolean;
  /** Colours for stdout text. */
  readonly c: Colors;
  /** Colours for stderr text. */
  readonly ce: Colors;

  constructor(
    private readonly streams: OutputStreams,
    options: OutputOptions,
  ) {
    this.json = options.json;
    const wanted = (tty: boolean | undefined) =>
      options.color !== false && !options.env.NO_COLOR && (Boolean(options.env.FORCE_COLOR) || tty === true);
    this.c = createColors(!this.json && wanted(streams.stdout.isTTY));
    this.ce = createColors(wanted(streams.stderr.isTTY));
  }

  /** True when a person is likely watching stderr (progress bars, prompts). */
  get interactive(): boolean {
    return this.streams.stderr.isTTY === true;
  }

  /** The command's result: `value` as JSON with --json, else what `human` renders. */
  result<T>(value: T, human: (value: T) => string): void {
    if (this.json) this.streams.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
    else {
      const text = human(value);
      if (text) this.streams.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
    }
  }

  /** A line for people on stderr (never part of the result). */
  info(line: string): void {
    this.streams.stderr.write(`${line}\n`);
  }

  warn(line: string): void {
    this.streams.stderr.write(`${this.ce.yellow('warning:')} ${line}\n`);
  }

  /** Reports a failure: one line and a hint on stderr; with --json also `{error}` on stdout. */
  error(error: CliError): void {
    if (this.json) {
      const body = { error: { message: error.message, exitCode: error.exitCode, hint: error.hint, ...error.details } };
      this.streams.stdout.write(`${JSON.stringify(body, null, 2)}\n`);
    }
    this.streams.stderr.write(`${this.ce.red('error:')} ${error.message}\n`);
    if (error.hint) this.streams.stderr.write(`${this.ce.dim(error.hint)}\n`);
  }

  /** A table for people: `head` names the columns, each row one cell per column. */
  table(head: readonly string[], rows: readonly (readonly unknown[])[]): string {
    const table = new Table({
      head: head.map((h) => this.c.bold(h)),
      style: { head: [], border: [] },
      wordWrap: true,
    });
    for (const row of rows) table.push(row.map(cellText));
    return table.toString();
  }
}

/** A table cell: text as is, nothing for null, JSON for objects (never `[object Object]`). */
function cellText(cell: unknown): string {
  if (typeof cell === 'string') return cell;
  if (typeof cell === 'number' || typeof cell === 'boolean' || typeof cell === 'bigint') return String(cell);
  if (cell === null || cell === undefined) return '';
  return JSON.stringify(cell) ?? '';
}
