import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { applyEdits, type FormattingOptions, modify, parse, type ParseError, printParseErrorCode } from 'jsonc-parser';
import { CliError, ExitCode } from '../../cli-error';

/** The file's text, or undefined when it does not exist. */
export async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new CliError(`Cannot read ${path}: ${(error as Error).message}`, ExitCode.failure);
  }
}

/** Writes through a temporary file and a rename, keeping an existing file's mode (a 0600 `~/.claude.json` stays 0600). */
export async function writeAtomically(path: string, text: string): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const mode = await stat(path).then(
    (info) => info.mode & 0o777,
    () => 0o644,
  );
  const temporary = `${path}.cairn-${process.pid}.tmp`;
  await writeFile(temporary, text, { mode });
  await chmod(temporary, mode);
  await rename(temporary, path);
}

function jsonRoot(text: string, path: string): Record<string, unknown> {
  const errors: ParseError[] = [];
  const root: unknown = parse(text, errors, { allowTrailingComma: true, disallowComments: false });
  if (errors.length > 0) {
    const first = errors[0];
    const line = text.slice(0, first.offset).split('\n').length;
    throw new CliError(
      `${path} is not valid JSON (${printParseErrorCode(first.error)} on line ${line}); nothing was changed`,
      ExitCode.rejected,
      'Fix the file by hand, or use --print and merge the entry yourself.',
    );
  }
  if (root === undefined && text.trim() === '') return {};
  if (typeof root !== 'object' || root === null || Array.isArray(root)) {
    throw new CliError(`${path} does not hold a JSON object; nothing was changed`, ExitCode.rejected);
  }
  return root as Record<string, unknown>;
}

/** The indentation the file already uses (two spaces for a new file). */
function formattingOf(text: string): FormattingOptions {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1];
  if (indent?.startsWith('\t')) return { insertSpaces: false, tabSize: 1, eol: '\n' };
  return { insertSpaces: true, tabSize: indent?.length ?? 2, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}

/**
 * Sets or removes `<container>.<name>` in a JSON or JSONC document with jsonc-parser's edits, so
 * every other byte (other servers, comments, key order, indentation) stays as it was.
 */
export function editJson(
  text: string | undefined,
  path: string,
  container: string,
  name: string,
  entry: unknown,
): { text: string; previous: unknown } {
  const source = text ?? '{}\n';
  const root = jsonRoot(source, path);
  const servers = root[container];
  if (servers !== undefined && (typeof servers !== 'object' || servers === null || Array.isArray(servers))) {
    throw new CliError(`${path}: "${container}" is not an object; nothing was changed`, ExitCode.rejected);
  }
  const previous = (servers as Record<string, unknown> | undefined)?.[name];
  if (entry === undefined && previous === undefined) return { text: source, previous };
  const edits = modify(source, [container, name], entry, { formattingOptions: formattingOf(source) });
  let result = applyEdits(source, edits);
  if (!result.endsWith('\n')) result += '\n';
  return { text: result, previous };
}
