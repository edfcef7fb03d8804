import { isDeepStrictEqual } from 'node:util';
import { parse, patch } from '@decimalturn/toml-patch';
import { CliError, ExitCode } from '../../cli-error';

type Table = Record<string, unknown>;

/** toml-patch gives tables a null prototype; compare documents as plain data. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, plain(item)]));
  }
  return value;
}

function parseToml(text: string, path: string): Table {
  try {
    return parse(text) as Table;
  } catch (error) {
    throw new CliError(
      `${path} is not valid TOML (${(error as Error).message.split('\n')[0]}); nothing was changed`,
      ExitCode.rejected,
      'Fix the file by hand, or use --print and merge the entry yourself.',
    );
  }
}

/** `[container.name]` with one `key = "value"` line per field: the form the clients document. */
function tableBlock(container: string, name: string, entry: Readonly<Record<string, unknown>>): string {
  const lines = Object.entries(entry).map(([key, value]) => {
    if (typeof value !== 'string') throw new Error(`TOML entry field ${key} must be a string`);
    // A JSON string is a valid TOML basic string (the same escapes).
    return `${key} = ${JSON.stringify(value)}`;
  });
  return `[${container}.${name}]\n${lines.join('\n')}\n`;
}

/**
 * Sets or removes `[<container>.<name>]` in a TOML file without touching anything else: comments,
 * order and formatting survive (@decimalturn/toml-patch edits the syntax tree in place; a new
 * entry is appended as its own table, the form Codex documents). The result is parsed back and
 * must equal the old document with only that entry changed, or nothing is written.
 */
export function editToml(
  text: string | undefined,
  path: string,
  container: string,
  name: string,
  entry: Readonly<Record<string, unknown>> | undefined,
): { text: string; previous: unknown } {
  const source = text ?? '';
  const document = parseToml(source, path);
  const servers = document[container];
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) {
    throw new CliError(`${path}: "${container}" is not a table; nothing was changed`, ExitCode.rejected);
  }
  const previous = (servers as Table | undefined)?.[name];
  if (entry === undefined && previous === undefined) return { text: source, previous };

  const expected = plain(document) as Table;
  const expectedServers = (expected[container] ??= {}) as Table;
  if (entry === undefined) delete expectedServers[name];
  else expectedServers[name] = { ...entry };

  const candidates: (() => string)[] = [];
  if (previous === undefined && entry !== undefined) {
    const separator = source === '' || source.endsWith('\n\n') ? '' : source.endsWith('\n') ? '\n' : '\n\n';
    candidates.push(() => `${source}${separator}${tableBlock(container, name, entry)}`);
  }
  candidates.push(() => patch(source, expected, { inlineTableStart: 3 }));
  for (const candidate of candidates) {
    let result: string;
    try {
      result = candidate();
      if (isDeepStrictEqual(plain(parse(result)), expected)) return { text: result, previous };
    } catch {
      // this way of editing does not fit the file (say, an inline `mcp_servers = {…}`): try the next
    }
  }
  throw new CliError(
    `Could not edit ${path} without changing anything else; nothing was changed`,
    ExitCode.rejected,
    'Use --print and merge the entry by hand.',
  );
}
