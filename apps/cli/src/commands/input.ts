import { InvalidArgumentError } from 'commander';
import { CliError, ExitCode } from '../cli-error';

/** A commander parser for an integer option within bounds; a bad value is a usage error (exit 2). */
export function integerIn(min: number, max: number): (value: string) => number {
  return (value: string) => {
    const parsed = Number(value);
    if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`expected a whole number from ${min} to ${max}`);
    }
    return parsed;
  };
}

/** A commander parser for a number option within bounds. */
export function numberIn(min: number, max: number): (value: string) => number {
  return (value: string) => {
    const parsed = Number(value);
    if (value.trim() === '' || !Number.isFinite(parsed) || parsed < min || parsed > max) {
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}`);
    }
    return parsed;
  };
}

/** A commander parser for a value from a fixed list. */
export function oneOf<T extends string>(values: readonly T[]): (value: string) => T {
  return (value: string) => {
    if (!(values as readonly string[]).includes(value)) {
      throw new InvalidArgumentError(`expected one of ${values.join(', ')}`);
    }
    return value as T;
  };
}

/** A repeatable option whose values may also be comma-separated: `--tag a --tag b,c` → [a, b, c]. */
export function collectList(value: string, previous: readonly string[] = []): string[] {
  const items = value
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
  return [...previous, ...items];
}

/** An ISO 8601 date-time option (or a date, read as UTC midnight). */
export function isoDateTime(value: string): string {
  const date = new Date(/^\d{4}-\d{2}-\d{2}$/.test(value) ? `${value}T00:00:00Z` : value);
  if (Number.isNaN(date.getTime())) throw new InvalidArgumentError('expected an ISO 8601 date or date-time');
  return date.toISOString();
}

/**
 * Reads a stream to its end as UTF-8, refusing more than `maxBytes` (the server would answer 413;
 * failing here says so before anything is sent and without buffering gigabytes).
 */
export async function readAll(stream: NodeJS.ReadableStream, maxBytes: number, what: string): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buffer.length;
    if (size > maxBytes) {
      throw new CliError(`${what} is larger than ${maxBytes} bytes`, ExitCode.usage);
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The text of a command: the argument, or standard input when the argument is `-` or absent and
 * input is piped. A terminal on stdin with no argument is a usage error rather than a silent wait.
 */
export async function textFromArgumentOrStdin(
  argument: string | undefined,
  stdin: NodeJS.ReadableStream & { isTTY?: boolean },
  limits: { maxChars: number; what: string },
): Promise<string> {
  let text: string;
  if (argument !== undefined && argument !== '-') text = argument;
  else if (stdin.isTTY && argument === undefined) {
    throw new CliError(
      `No ${limits.what} given`,
      ExitCode.usage,
      `Pass it as an argument, or pipe it in (… | cairn …).`,
    );
  } else text = await readAll(stdin, limits.maxChars * 4, limits.what);
  if (text.trim() === '') throw new CliError(`The ${limits.what} is empty`, ExitCode.usage);
  if (text.length > limits.maxChars) {
    throw new CliError(
      `The ${limits.what} has ${text.length} characters; at most ${limits.maxChars} are accepted`,
      ExitCode.usage,
    );
  }
  return text;
}

/** Shortens text to one line of at most `max` characters for a table cell. */
export function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
