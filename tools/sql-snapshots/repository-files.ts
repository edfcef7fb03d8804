import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

/** A `*.repository.ts` of a library, and where its snapshot goes. */
export interface RepositoryFile {
  /** Relative to the repository root, with forward slashes: libs/memory/src/memories.repository.ts. */
  readonly path: string;
  readonly library: string;
  /** libs/<lib>/sql/<file name without .ts>.sql */
  readonly snapshot: string;
}

/** A public method of a class in a repository file, and what it declares for the snapshots. */
export interface RepositoryMethod {
  readonly file: string;
  readonly line: number;
  readonly owner: string;
  readonly method: string;
  readonly declares: 'SqlSnapshot' | 'NoSqlSnapshot' | null;
}

function filesUnder(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    return entry.isDirectory() ? filesUnder(path) : [path];
  });
}

/** Every library's repository files (not their specs), in path order. */
export function repositoryFiles(root: string): RepositoryFile[] {
  const libraries = readdirSync(join(root, 'libs'), { withFileTypes: true }).filter((entry) => entry.isDirectory());
  return libraries
    .flatMap((library) =>
      filesUnder(join(root, 'libs', library.name, 'src'))
        .filter((file) => file.endsWith('.repository.ts'))
        .map((file) => {
          const path = relative(root, file).split(sep).join('/');
          const name = path.slice(path.lastIndexOf('/') + 1, -'.ts'.length);
          return { path, library: library.name, snapshot: `libs/${library.name}/sql/${name}.sql` };
        }),
    )
    .sort((a, b) => a.path.localeCompare(b.path));
}

const SNAPSHOT_DECORATORS = new Set(['SqlSnapshot', 'NoSqlSnapshot']);

function isPublic(member: ts.ClassElement): boolean {
  if (member.name && ts.isPrivateIdentifier(member.name)) return false;
  const flags = ts.getCombinedModifierFlags(member);
  return (flags & (ts.ModifierFlags.Private | ts.ModifierFlags.Protected)) === 0;
}

/**
 * The public methods (not accessors, not the constructor) of every class in `file`, read from its
 * source rather than from what it exports at run time, so a class Nest never builds is still seen.
 */
export function publicMethodsOf(root: string, file: string, text = readFileSync(join(root, file), 'utf8')) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const methods: RepositoryMethod[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isClassDeclaration(node) && node.name) {
      for (const member of node.members) {
        if (!ts.isMethodDeclaration(member) || !isPublic(member)) continue;
        const names = (ts.getDecorators(member) ?? []).map((decorator) => {
          const call = decorator.expression;
          const callee = ts.isCallExpression(call) ? call.expression : call;
          return ts.isIdentifier(callee) ? callee.text : '';
        });
        const declares = names.find((name) => SNAPSHOT_DECORATORS.has(name)) as RepositoryMethod['declares'];
        methods.push({
          file,
          line: source.getLineAndCharacterOfPosition(member.getStart(source)).line + 1,
          owner: node.name.text,
          method: member.name.getText(source),
          declares: declares ?? null,
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return methods;
}
