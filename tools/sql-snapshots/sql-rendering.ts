import { type CapturedStatement } from './statement-capture';

/** A statement as the snapshot shows it: normalised text, its parameters' types, how it was sent. */
export interface RenderedStatement {
  readonly text: string;
  /** One per placeholder, `$1` first: as PostgreSQL infers them, or as bound when it cannot alone. */
  readonly parameters: readonly string[];
  readonly inferred: boolean;
  readonly preparedAs?: string;
}

/** What a file shows for one method: its statements per example, or why it has none. */
export type MethodSection =
  | {
      readonly kind: 'examples';
      readonly owner: string;
      readonly method: string;
      readonly examples: readonly { readonly name?: string; readonly statements: readonly RenderedStatement[] }[];
    }
  | { readonly kind: 'exempt'; readonly owner: string; readonly method: string; readonly reason: string };

/**
 * The statement text as written in the source, made independent of where it was written:
 * the indentation of its continuation lines removed, trailing spaces and blank lines dropped.
 * Transaction control TypeORM sends for a method's own transaction (a savepoint under the
 * generator's) is shown as the statement it stands for.
 */
export function normaliseStatement(text: string): string {
  const bare = text.trim();
  const control = TRANSACTION_CONTROL.find(([pattern]) => pattern.test(bare));
  if (control) return control[1];
  const lines = text
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''));
  while (lines.length > 0 && lines[0] === '') lines.shift();
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  // A statement that starts right after its quote has an unindented first line: dedent the rest.
  const firstFlush = lines.length > 0 && !/^\s/.test(lines[0]);
  const indented = (firstFlush ? lines.slice(1) : lines).filter((line) => line !== '');
  const indent = Math.min(...indented.map((line) => /^ */.exec(line)![0].length), Number.MAX_SAFE_INTEGER);
  const dedented = lines.map((line, index) =>
    index === 0 && firstFlush ? line : line.slice(Math.min(indent, /^ */.exec(line)![0].length)),
  );
  return dedented
    .filter((line, index) => line !== '' || dedented[index - 1] !== '')
    .join('\n')
    .replace(/;$/, '');
}

/** TypeORM's transaction control, as a method's own transaction sends it nested in the generator's. */
const TRANSACTION_CONTROL: readonly [RegExp, string][] = [
  [/^(START TRANSACTION|SAVEPOINT typeorm_\d+)$/, 'BEGIN'],
  [/^(COMMIT|RELEASE SAVEPOINT typeorm_\d+)$/, 'COMMIT'],
  [/^(ROLLBACK|ROLLBACK TO SAVEPOINT typeorm_\d+)$/, 'ROLLBACK'],
];

/** How a value is bound, for a statement PostgreSQL cannot describe on its own (a utility statement). */
export function boundKind(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (Buffer.isBuffer(value)) return 'bytes';
  if (value instanceof Date) return 'date';
  if (Array.isArray(value)) return `${value.length > 0 ? boundKind(value[0]) : 'empty'}[]`;
  return typeof value === 'object' ? 'json' : typeof value;
}

/** Statements sent more than once by one example (a loop's) are shown once, where first sent. */
export function distinct(statements: readonly CapturedStatement[]): CapturedStatement[] {
  const seen = new Set<string>();
  return statements.filter((statement) => {
    const key = normaliseStatement(statement.text);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** `items` after `first`, joined by `separator`, continued on `next` lines within `width` characters. */
function wrapped(items: readonly string[], first: string, next: string, width = 110, separator = ', '): string[] {
  const lines: string[] = [];
  let line = first;
  items.forEach((item, index) => {
    const text = index < items.length - 1 ? `${item}${separator.trimEnd()}` : item;
    const bare = line === first || line === next;
    if (!bare && line.length + text.length + 1 > width) {
      lines.push(line);
      line = next;
    }
    line = line === first || line === next ? `${line}${text}` : `${line} ${text}`;
  });
  lines.push(line);
  return lines;
}

function renderStatement(statement: RenderedStatement): string {
  const notes: string[] = [];
  if (statement.preparedAs) notes.push(`-- prepared statement ${statement.preparedAs}`);
  if (statement.parameters.length > 0) {
    const typed = statement.parameters.map((type, index) => `$${index + 1} ${type}`);
    const first = statement.inferred ? '-- parameters: ' : '-- parameters (as bound): ';
    notes.push(...wrapped(typed, first, '--   '));
  }
  return [...notes, `${statement.text};`].join('\n');
}

/** One repository file's snapshot: a header, then each method in source order. */
export function renderSnapshot(source: string, sections: readonly MethodSection[]): string {
  const header = [
    `-- The statements of ${source},`,
    '-- as tools/sql-snapshots records them: each method called with its @SqlSnapshot examples on a',
    '-- migrated database, in a transaction rolled back. Placeholders carry the types PostgreSQL infers',
    '-- for them, never values. Generated: `npm run snapshots` rewrites this file.',
  ].join('\n');
  const bodies = sections.map((section) => {
    const title = `-- ${section.owner}.${section.method}`;
    if (section.kind === 'exempt')
      return wrapped(section.reason.split(' '), `${title}, no snapshot: `, '--   ', 100, ' ').join('\n');
    return section.examples
      .map((example) => {
        const heading = example.name ? `${title} (${example.name})` : title;
        return `${heading}\n${example.statements.map(renderStatement).join('\n\n')}`;
      })
      .join('\n\n');
  });
  return `${[header, ...bodies].join('\n\n')}\n`;
}
