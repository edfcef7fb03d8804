import { BadRequestError, nameForMessage } from '@cairn/common';
import { type z } from 'zod';
import { EXPORT_FORMAT, type ExportedMemory, exportedMemorySchema, exportHeaderSchema } from './contract/export-format';

export interface ImportLine {
  /** 1-based line number in the uploaded file, for error messages. */
  readonly line: number;
  readonly memory: ExportedMemory;
}

export interface ParsedImport {
  readonly header: z.infer<typeof exportHeaderSchema>;
  readonly lines: ImportLine[];
}

export interface LineError {
  readonly line: number;
  readonly path: string;
  readonly message: string;
}

export interface ImportLimits {
  readonly maxContentChars: number;
  readonly maxLines: number;
}

const MAX_REPORTED = 100;

/**
 * Validates a whole JSON Lines upload before anything is written: the header, then every
 * memory line with the export schema, plus what no single line can check alone (duplicate
 * ids). Blank lines are ignored. Throws one 400 listing every bad line (the first hundred).
 */
export function parseImport(text: string, limits: ImportLimits): ParsedImport {
  const raw = text.split(/\r?\n/);
  const errors: LineError[] = [];
  const lines: ImportLine[] = [];
  const seen = new Map<string, number>();
  let header: ParsedImport['header'] | undefined;
  let headerLine: number | undefined;
  let memoryLines = 0;

  for (const [index, source] of raw.entries()) {
    const line = index + 1;
    if (source.trim() === '') continue;
    const value = parseJson(source);
    if (headerLine === undefined) {
      headerLine = line;
      header = parseHeader(line, value, errors);
      continue;
    }
    if (value === undefined) {
      errors.push({ line, path: '', message: 'not valid JSON' });
      continue;
    }
    memoryLines += 1;
    if (memoryLines > limits.maxLines) {
      if (memoryLines === limits.maxLines + 1) {
        errors.push({ line, path: '', message: `at most ${limits.maxLines} memories per import` });
      }
      continue;
    }
    const parsed = exportedMemorySchema.safeParse(value);
    if (!parsed.success) {
      errors.push(...issuesOf(line, parsed.error));
      continue;
    }
    const memory = parsed.data;
    if (memory.content.length > limits.maxContentChars) {
      errors.push({ line, path: 'content', message: `must be at most ${limits.maxContentChars} characters` });
      continue;
    }
    const first = seen.get(memory.id);
    if (first !== undefined) {
      errors.push({ line, path: 'id', message: `duplicate id: also on line ${first}` });
      continue;
    }
    seen.set(memory.id, line);
    lines.push({ line, memory });
  }

  if (headerLine === undefined) errors.push({ line: 1, path: 'header', message: 'the file is empty' });
  if (errors.length > 0 || header === undefined) throw invalidImport(errors);
  return { header, lines };
}

export function invalidImport(errors: readonly LineError[]): BadRequestError {
  const linesWithErrors = new Set(errors.map((error) => error.line)).size;
  const first = errors[0];
  const where = first ? ` (first: line ${first.line}${first.path ? ` ${first.path}` : ''}: ${first.message})` : '';
  return new BadRequestError(
    `${linesWithErrors} invalid line${linesWithErrors === 1 ? '' : 's'}; nothing was imported${where}`,
    errors.slice(0, MAX_REPORTED),
    'invalid_import',
  );
}

function parseHeader(line: number, value: unknown, errors: LineError[]): ParsedImport['header'] | undefined {
  if (typeof value !== 'object' || value === null || !('format' in value)) {
    errors.push({ line, path: 'header', message: `the first line must be a header {"format":"${EXPORT_FORMAT}",…}` });
    return undefined;
  }
  const parsed = exportHeaderSchema.safeParse(value);
  if (parsed.success) return parsed.data;
  errors.push(...issuesOf(line, parsed.error, 'header'));
  return undefined;
}

function parseJson(source: string): unknown {
  try {
    return JSON.parse(source) as unknown;
  } catch {
    return undefined;
  }
}

function issuesOf(line: number, error: z.ZodError, prefix?: string): LineError[] {
  return error.issues.map((issue) => {
    const path = [prefix, ...issue.path.map(nameForMessage)].filter(Boolean).join('.');
    const message =
      issue.code === 'unrecognized_keys'
        ? `unknown field(s): ${issue.keys.map(nameForMessage).join(', ')}`
        : issue.message;
    return { line, path, message };
  });
}
