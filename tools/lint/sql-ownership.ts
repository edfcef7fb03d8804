import { readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * The two SQL boundaries of docs/architecture.md ("Who owns which table"), read from the
 * sources: every table has one owning library and only that library's repositories name it in
 * SQL; and no library's index.ts hands out SQL (a statement, a fragment or a builder of one).
 * Pure functions over files, so the spec can show each rule a violation it must report.
 */

/** Table → owning library (its folder under libs/), per schema: docs/table-owners.json. */
export interface OwnershipMap {
  readonly control: Readonly<Record<string, string>>;
  readonly tenant: Readonly<Record<string, string>>;
}

export interface Naming {
  readonly file: string;
  readonly line: number;
  readonly table: string;
  /** Why it is refused: another library's table, or SQL outside a repository of the owner. */
  readonly problem: 'not-owner' | 'not-repository';
  readonly owner: string;
}

/** Files that may hold SQL: repositories, their statement builders, TypeORM entities. */
const DATABASE_FILE = /\.(repository|sql|entity)\.ts$/;

/**
 * Text that reads as SQL: a statement keyword in capitals (the code base writes SQL keywords
 * in capitals and prose in lower case, so "memories from a file" in a tool's description is not SQL).
 */
const STATEMENT =
  /\b(SELECT|INSERT|UPDATE|DELETE|FROM|JOIN|WHERE|RETURNING|ANALYZE|VACUUM|TRUNCATE|EXISTS|TABLE|INDEX)\b/;

/** A fragment of SQL: a statement keyword, a boolean operator in capitals, or a cast. */
const FRAGMENT =
  /\b(SELECT|INSERT|UPDATE|DELETE|FROM|JOIN|WHERE|RETURNING|EXISTS|AND|OR|NOT|ANY|IS NULL|IS NOT NULL|IS TRUE)\b|::(uuid|text|int|bigint|jsonb|timestamptz|tsquery|tsvector|vector|xid8)\b/;

/** Names that say "SQL" (memoryFilterSql, MEMORY_FROM, GRANT_NOTICE_INSERT, keywordCtes, TOKEN_LOOKUP_SQL…). */
const SQL_NAME = /(Sql|SQL|Ctes?|Cte)$|^[A-Z0-9_]*(SQL|_FROM|_COLUMNS|_INSERT|_WHERE|_SELECT)[A-Z0-9_]*$/;

export function tablesOf(map: OwnershipMap): Map<string, string> {
  return new Map([...Object.entries(map.control), ...Object.entries(map.tenant)]);
}

/** The tables the migrations create, `cairn.` dropped from control tables. */
export function migratedTables(root: string): { control: string[]; tenant: string[] } {
  const read = (dir: string) =>
    sourceFiles(join(root, dir))
      .map((file) => readFileSync(file, 'utf8'))
      .flatMap((text) => [...text.matchAll(/CREATE TABLE (?:IF NOT EXISTS )?([a-z_.]+)/g)].map((match) => match[1]));
  return {
    control: read('libs/db/src/migrations').map((name) => name.replace(/^cairn\./, '')),
    tenant: read('libs/tenancy/src/migrations'),
  };
}

/**
 * The apps that are clients, not the server: they never reach the server's database (DESIGN
 * §12), and the tables their own local stores name (the `cairn` command's SQLite cache) are not
 * the server's.
 */
const CLIENT_APPS = new Set(['cli']);

/** Production sources: libraries and the server's apps, without tests and migrations (which create every table). */
export function productionFiles(root: string): string[] {
  return [
    ...sourceFiles(join(root, 'libs')).filter((file) => /[\\/]libs[\\/][^\\/]+[\\/]src[\\/]/.test(file)),
    ...sourceFiles(join(root, 'apps')).filter((file) => {
      const app = /[\\/]apps[\\/]([^\\/]+)[\\/]src[\\/]/.exec(file)?.[1];
      return app !== undefined && !CLIENT_APPS.has(app);
    }),
  ].filter((file) => !/\.(e2e-)?spec\.ts$/.test(file) && !/[\\/]migrations[\\/]/.test(file));
}

/** Every table a file names in SQL, with the line, and whether that is allowed. */
export function namingsIn(root: string, file: string, text: string, owners: ReadonlyMap<string, string>): Naming[] {
  const path = relative(root, file).split(sep).join('/');
  const library = /^libs\/([^/]+)\//.exec(path)?.[1] ?? null;
  const databaseFile = DATABASE_FILE.test(path);
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const namings: Naming[] = [];
  for (const literal of literalsOf(source)) {
    for (const [table, owner] of owners) {
      if (!names(literal.text, table, databaseFile)) continue;
      const problem = library !== owner ? 'not-owner' : databaseFile ? null : 'not-repository';
      if (problem === null) continue;
      const line = source.getLineAndCharacterOfPosition(literal.start).line + 1;
      namings.push({ file: path, line, table, problem, owner });
    }
  }
  return namings;
}

/**
 * Whether `text` names `table` in SQL: as a word of a statement (`FROM memories m`,
 * `cairn.tenants`, `${schema}.term_counts`, never `m.memories`), or, in a repository, a
 * statement builder or an entity, as the whole literal (`table: 'memories'`, `@Entity('projects')`).
 */
function names(text: string, table: string, databaseFile: boolean): boolean {
  if (databaseFile && (text === table || text === `cairn.${table}`)) return true;
  if (!STATEMENT.test(text)) return false;
  for (const match of text.matchAll(new RegExp(`(?<![\\w])${table}(?![\\w])`, 'g'))) {
    const before = text.slice(0, match.index);
    if (!before.endsWith('.') || /(cairn|\}|")\.$/.test(before)) return true;
  }
  return false;
}

interface Literal {
  readonly text: string;
  readonly start: number;
}

/** String and template literals; a template's parts joined with `${}` where its expressions were. */
function literalsOf(source: ts.SourceFile): Literal[] {
  const found: Literal[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      found.push({ text: node.text, start: node.getStart(source) });
    } else if (ts.isTemplateExpression(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)];
      found.push({ text: parts.join('${}'), start: node.getStart(source) });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export interface SqlExport {
  readonly index: string;
  readonly name: string;
  readonly why: 'name' | 'value';
}

/**
 * What a library's index.ts exports that is SQL: a value named like SQL, or a constant or
 * top-level function whose text is SQL (a statement, a fragment, an object of statements).
 * Classes (services, repositories) and types are not: a repository method may return a
 * rendered statement for a diagnostic, which is a value, not a builder.
 */
export function sqlExportsOf(root: string, indexFile: string): SqlExport[] {
  const index = relative(root, indexFile).split(sep).join('/');
  const source = ts.createSourceFile(index, readFileSync(indexFile, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: SqlExport[] = [];
  for (const statement of source.statements) {
    if (!ts.isExportDeclaration(statement) || statement.isTypeOnly || !statement.exportClause) continue;
    if (!ts.isNamedExports(statement.exportClause) || !statement.moduleSpecifier) continue;
    const module = (statement.moduleSpecifier as ts.StringLiteral).text;
    if (!module.startsWith('.')) continue;
    const file = join(indexFile, '..', `${module}.ts`);
    const declarations = topLevelDeclarations(file);
    for (const element of statement.exportClause.elements) {
      if (element.isTypeOnly) continue;
      const local = (element.propertyName ?? element.name).text;
      const exported = element.name.text;
      if (SQL_NAME.test(exported) || SQL_NAME.test(local)) {
        found.push({ index, name: exported, why: 'name' });
        continue;
      }
      const declaration = declarations.get(local);
      if (declaration && holdsSql(declaration)) found.push({ index, name: exported, why: 'value' });
    }
  }
  return found;
}

function topLevelDeclarations(file: string): Map<string, ts.Node> {
  const declarations = new Map<string, ts.Node>();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return declarations;
  }
  const source = ts.createSourceFile(basename(file), text, ts.ScriptTarget.Latest, true);
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name) declarations.set(statement.name.text, statement);
    if (ts.isVariableStatement(statement)) {
      for (const declaration of statement.declarationList.declarations) {
        if (ts.isIdentifier(declaration.name) && declaration.initializer) {
          declarations.set(declaration.name.text, declaration.initializer);
        }
      }
    }
  }
  return declarations;
}

/** A constant or a function whose literals read as SQL. */
function holdsSql(node: ts.Node): boolean {
  const literals: string[] = [];
  const visit = (child: ts.Node): void => {
    if (ts.isClassDeclaration(child) || ts.isClassExpression(child)) return;
    if (ts.isStringLiteral(child) || ts.isNoSubstitutionTemplateLiteral(child)) literals.push(child.text);
    else if (ts.isTemplateExpression(child)) {
      literals.push([child.head.text, ...child.templateSpans.map((span) => span.literal.text)].join('${}'));
    }
    ts.forEachChild(child, visit);
  };
  visit(node);
  return literals.some((text) => FRAGMENT.test(text));
}

function sourceFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    if (entry.name === 'node_modules' || entry.name === 'dist' || entry.name.startsWith('.')) return [];
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
