import { type Node, type QueryMatch, type Tree } from 'web-tree-sitter';
import { type CodeLanguage } from './languages';
import { type CodeReference, type CodeSymbol, MAX_REFERENCES, type ParsedFile } from './parsed-file';
import { declarationExtent } from './signature';
import {
  type ContainerRole,
  containerName,
  type FileFacts,
  receiverType,
  symbolKind,
  SYNTAX_RULES,
  type SyntaxRules,
} from './syntax-rules';
import { type LoadedGrammar } from './tree-sitter-runtime';

/**
 * One file through a loaded grammar: parse, run the tag query, and turn its matches into symbols
 * and references. Synchronous from parse to `tree.delete()`, so the grammar's one parser is never
 * shared, and wasm memory is freed whatever happens.
 */

/** A type parameter's own name (`T` of `<T extends Job>`) declares it: no reference. */
const TYPE_PARAMETER_NODES = new Set(['type_parameter', 'type_parameters', 'constrained_type_parameter']);

/**
 * `exports.run = function run() {}` is tagged twice, as the assignment and as the named function
 * expression; the name it is known by outside is the assignment's (or the variable's, the key's).
 */
const FUNCTION_EXPRESSIONS = new Set(['function_expression', 'function', 'generator_function']);
const NAMING_PARENTS = new Set([
  'variable_declarator',
  'assignment_expression',
  'pair',
  'public_field_definition',
  'field_definition',
]);

interface Placement {
  /** Declared inside a function body (a local): not indexed. */
  local: boolean;
  container: Node | null;
}

export function failedParse(language: CodeLanguage, error: string): ParsedFile {
  return { language, symbols: [], references: [], error };
}

function placementOf(node: Node, rules: SyntaxRules): Placement {
  for (let scope = node.parent; scope; scope = scope.parent) {
    if (rules.localScopes.has(scope.type)) return { local: true, container: null };
    if (Object.hasOwn(rules.containers, scope.type)) return { local: false, container: scope };
  }
  return { local: false, container: null };
}

/** TS/JS names exported by a separate statement: `export { a, b as c }`, `export default a`. */
function exportedNames(tree: Tree, language: CodeLanguage): Set<string> {
  const names = new Set<string>();
  if (language !== 'typescript' && language !== 'tsx' && language !== 'javascript') return names;
  for (const statement of tree.rootNode.namedChildren) {
    if (statement.type !== 'export_statement' || statement.childForFieldName('source')) continue;
    const value = statement.childForFieldName('value');
    if (value?.type === 'identifier') names.add(value.text);
    const clause = statement.namedChildren.find((child) => child.type === 'export_clause');
    for (const specifier of clause?.namedChildren ?? []) {
      const local = specifier.childForFieldName('name');
      if (local) names.add(local.text);
    }
  }
  return names;
}

/** The identifier a reference capture stands for: `B` of `new a.B()`. */
function referenceName(node: Node): string | null {
  let leaf: Node | null = node;
  for (let depth = 0; leaf && leaf.namedChildCount > 0 && depth < 8; depth++) {
    leaf =
      leaf.childForFieldName('property') ??
      leaf.childForFieldName('name') ??
      leaf.childForFieldName('field') ??
      leaf.lastNamedChild;
  }
  const name = leaf?.text ?? '';
  return /^[\p{L}\p{N}_$]+$/u.test(name) ? name : null;
}

class TagCollector {
  private readonly rules: SyntaxRules;
  private readonly facts: FileFacts;
  private readonly symbols = new Map<string, CodeSymbol & { index: number }>();
  /** Start offsets of definition names: a name where it is declared is no reference. */
  private readonly definitionNames = new Set<number>();
  /** Reference names, resolved to identifiers and filtered once every definition is known. */
  private readonly referenceNodes: Node[] = [];

  constructor(
    private readonly language: CodeLanguage,
    private readonly content: string,
    tree: Tree,
  ) {
    this.rules = SYNTAX_RULES[language];
    this.facts = { exportedNames: exportedNames(tree, language) };
  }

  add(match: QueryMatch): void {
    const nameNode = match.captures.find((capture) => capture.name === 'name')?.node;
    const tag = match.captures.find((capture) => /^(definition|reference)\./.test(capture.name));
    if (!nameNode || !tag) return;
    if (tag.name.startsWith('definition.')) {
      this.definitionNames.add(nameNode.startIndex);
      this.addDefinition(tag.name.slice('definition.'.length), tag.node, nameNode);
    } else {
      this.referenceNodes.push(nameNode);
    }
  }

  private isExported(node: Node, name: string, container: Node | null): boolean {
    if (!this.rules.isPublic(node, name, container, this.facts)) return false;
    if (!container) return true;
    return this.isExported(container, containerName(container) ?? '', placementOf(container, this.rules).container);
  }

  private addDefinition(tagKind: string, node: Node, nameNode: Node): void {
    if (FUNCTION_EXPRESSIONS.has(node.type) && NAMING_PARENTS.has(node.parent?.type ?? '')) return;
    const name = nameNode.text.replace(/\s+/g, '');
    const { local, container } = placementOf(node, this.rules);
    if (local || !name) return;
    const role: ContainerRole | null = container ? (this.rules.containers[container.type] ?? null) : null;
    const kind = symbolKind(tagKind, node, role);
    if (!kind) return;
    const key = `${node.id}:${name}`;
    const seen = this.symbols.get(key);
    // Two patterns can tag one node (a `const` whose value is a function): the function wins.
    if (seen && (seen.kind !== 'constant' || kind === 'constant')) return;
    const extent = declarationExtent(this.content, node);
    const goMethod = node.type === 'method_declaration' && this.language === 'go';
    this.symbols.set(key, {
      name,
      kind,
      startLine: extent.startRow + 1,
      endLine: extent.endRow + 1,
      signature: extent.signature,
      container: goMethod ? receiverType(node) : container && containerName(container),
      exported: this.isExported(node, name, container),
      index: node.startIndex,
    });
  }

  result(): ParsedFile {
    const symbols = [...this.symbols.values()]
      .sort((a, b) => a.index - b.index || a.name.localeCompare(b.name))
      .map(({ index: _index, ...symbol }) => symbol);
    const seen = new Set<string>();
    const references: CodeReference[] = [];
    for (const node of this.referenceNodes) {
      if (references.length >= MAX_REFERENCES) break;
      if (this.definitionNames.has(node.startIndex)) continue;
      if (TYPE_PARAMETER_NODES.has(node.parent?.type ?? '')) continue;
      const name = referenceName(node);
      const line = node.startPosition.row + 1;
      const key = `${line}:${name}`;
      if (!name || seen.has(key)) continue;
      seen.add(key);
      references.push({ name, line });
    }
    references.sort((a, b) => a.line - b.line || a.name.localeCompare(b.name));
    return { language: this.language, symbols, references };
  }
}

/** Parses `content` and extracts its tags, or says why it could not within `deadline` (performance.now()). */
export function extractTags(grammar: LoadedGrammar, content: string, deadline: number): ParsedFile {
  const { language, parser, query } = grammar;
  let timedOut = false;
  // Called every so often by the parser and the query cursor; true cancels.
  const progressCallback = (): boolean => (timedOut ||= performance.now() > deadline);
  const tree = parser.parse(content, null, { progressCallback });
  if (!tree) {
    // A cancelled parse would otherwise resume on the next file.
    parser.reset();
    return failedParse(language, timedOut ? 'parsing timed out' : 'the parser returned no tree');
  }
  try {
    const matches = query.matches(tree.rootNode, { progressCallback });
    if (timedOut) return failedParse(language, 'the tag query timed out');
    const collector = new TagCollector(language, content, tree);
    for (const match of matches) collector.add(match);
    return collector.result();
  } finally {
    tree.delete();
  }
}
