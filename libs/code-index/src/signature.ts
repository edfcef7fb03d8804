import { type Node } from 'web-tree-sitter';
import { SIGNATURE_MAX_CHARS } from './parsed-file';

/**
 * A declaration's extent and signature. tags.scm points at the declaration proper; the code index
 * wants what a reader sees: `export`, `declare` and `const` belong to it, decorators and
 * annotations do not (they are other names, and can run over many lines), and the signature
 * stops where the body starts.
 */

/** Tokens before a declaration that are not part of its signature. */
const SKIPPED = new Set(['decorator', 'comment', 'marker_annotation', 'annotation', 'attribute_item']);

/** Values whose body the signature leaves out: `const f = (a) => {…}` ends at the arrow. */
const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function', 'class']);
const LITERAL_VALUES = new Set(['object', 'array', 'object_type']);

/** Go's grouped declarations (`const ( … )`) put the keyword outside each spec. */
const GO_SPEC_KEYWORDS: Readonly<Record<string, string>> = {
  const_spec: 'const',
  type_spec: 'type',
  type_alias: 'type',
};

export interface DeclarationExtent {
  /** 0-based rows, inclusive. */
  startRow: number;
  endRow: number;
  signature: string;
}

/** The node whose text starts the declaration: `export const a = …` for the declarator `a = …`. */
function outerDeclaration(node: Node): Node {
  let outer = node;
  if (outer.type === 'variable_declarator' && outer.parent && /_declaration$/.test(outer.parent.type)) {
    outer = outer.parent;
  }
  if (outer.parent?.type === 'ambient_declaration') outer = outer.parent;
  if (outer.parent?.type === 'export_statement') outer = outer.parent;
  return outer;
}

/** The first token of a node that is not a decorator, annotation or comment. */
function firstCodeStart(node: Node): Node {
  for (const child of node.children) {
    if (SKIPPED.has(child.type)) continue;
    if (child.type === 'modifiers') {
      const keyword = child.children.find((modifier) => !SKIPPED.has(modifier.type));
      if (keyword) return keyword;
      continue;
    }
    return child;
  }
  return node;
}

function valueBody(value: Node): Node | null {
  if (FUNCTION_VALUES.has(value.type)) return value.childForFieldName('body');
  return LITERAL_VALUES.has(value.type) ? value : null;
}

/** Where the declaration's body starts, if it has one worth leaving out. */
function bodyOf(node: Node): Node | null {
  switch (node.type) {
    case 'variable_declarator':
    case 'pair':
    case 'public_field_definition':
    case 'field_definition':
    case 'type_alias_declaration': {
      const value = node.childForFieldName('value');
      return value ? valueBody(value) : null;
    }
    case 'assignment_expression': {
      const right = node.childForFieldName('right');
      return right ? valueBody(right) : null;
    }
    case 'type_spec': {
      // `type S struct {` / `type I interface {`: the fields or methods start at the brace.
      const type = node.childForFieldName('type');
      return type?.children.find((child) => child.type === 'field_declaration_list' || child.type === '{') ?? null;
    }
    default:
      return node.childForFieldName('body');
  }
}

/** Whitespace collapsed, the body's opening token dropped, at most SIGNATURE_MAX_CHARS. */
export function tidySignature(text: string): string {
  const line = text
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\s*[{:;=]$/, '');
  return line.length <= SIGNATURE_MAX_CHARS ? line : `${line.slice(0, SIGNATURE_MAX_CHARS - 1).trimEnd()}…`;
}

export function declarationExtent(content: string, node: Node): DeclarationExtent {
  const outer = outerDeclaration(node);
  const start = firstCodeStart(outer);
  const body = bodyOf(node);
  const end = body ? body.startIndex : node.endIndex;
  let text: string;
  const goKeyword = Object.hasOwn(GO_SPEC_KEYWORDS, node.type) ? GO_SPEC_KEYWORDS[node.type] : undefined;
  if (goKeyword) {
    text = `${goKeyword} ${content.slice(node.startIndex, end)}`;
  } else if (outer.id !== node.id && node.type === 'variable_declarator') {
    // `export const a = 1, b = 2`: b's signature is the keywords, then its own declarator.
    const first = node.parent?.namedChildren.find((child) => child.type === 'variable_declarator') ?? node;
    text = content.slice(start.startIndex, first.startIndex) + content.slice(node.startIndex, end);
  } else {
    text = content.slice(start.startIndex, end);
  }
  const last = outer.endIndex > node.endIndex ? outer : node;
  // A node that ends with its line's newline ends on the line before.
  const endRow =
    last.endPosition.column === 0 && last.endPosition.row > 0 ? last.endPosition.row - 1 : last.endPosition.row;
  const startRow = goKeyword ? node.startPosition.row : start.startPosition.row;
  return { startRow, endRow: Math.max(startRow, endRow), signature: tidySignature(text) };
}
