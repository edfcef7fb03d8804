import { type Node } from 'web-tree-sitter';
import { type CodeLanguage } from './languages';
import { type CodeSymbolKind } from './contract/code-index.types';

/**
 * What tags.scm cannot say about a declaration, per language: where its members live, which
 * scopes are local, and whether the language makes it visible outside its file or package.
 */

/** 'type': members are methods (classes, interfaces, traits, impls); 'module': members keep their kind. */
export type ContainerRole = 'type' | 'module';

/** Facts about the whole file that a declaration's own syntax does not carry. */
export interface FileFacts {
  /** TS/JS names exported apart from their declaration: `export { a, b as c }`, `export default a`. */
  readonly exportedNames: ReadonlySet<string>;
}

export interface SyntaxRules {
  /** Function bodies and the like: what is declared inside them is local, and not indexed. */
  readonly localScopes: ReadonlySet<string>;
  readonly containers: Readonly<Record<string, ContainerRole>>;
  /** Visible by its own syntax, whatever its container; the caller checks the container too. */
  isPublic(node: Node, name: string, container: Node | null, file: FileFacts): boolean;
}

const ECMASCRIPT_SCOPES = [
  'function_declaration',
  'function_expression',
  'function',
  'generator_function_declaration',
  'generator_function',
  'arrow_function',
  'method_definition',
  'class_static_block',
];

const ECMASCRIPT_CONTAINERS: Record<string, ContainerRole> = {
  class_declaration: 'type',
  abstract_class_declaration: 'type',
  class: 'type',
  interface_declaration: 'type',
  type_alias_declaration: 'type',
  internal_module: 'module',
  module: 'module',
};

function ecmascriptPublic(node: Node, name: string, container: Node | null, file: FileFacts): boolean {
  if (container && ECMASCRIPT_CONTAINERS[container.type] === 'type') {
    // A member: public unless marked private/protected or named with `#`.
    const accessibility = node.children.find((child) => child.type === 'accessibility_modifier');
    if (accessibility && accessibility.text !== 'public') return false;
    const nameNode = node.childForFieldName('name') ?? node.childForFieldName('property');
    return nameNode?.type !== 'private_property_identifier';
  }
  for (let scope = node.parent; scope && scope.id !== container?.id; scope = scope.parent) {
    if (scope.type === 'export_statement') return true;
  }
  if (!container && file.exportedNames.has(name)) return true;
  // CommonJS: `exports.name = function …` and `module.exports.name = …`.
  const left = node.type === 'assignment_expression' ? node.childForFieldName('left') : null;
  return !!left && /^(module\.)?exports\b/.test(left.text);
}

function rustPublic(node: Node, _name: string, container: Node | null): boolean {
  // impl blocks have no visibility of their own: their members carry it (or the trait does).
  if (node.type === 'impl_item') return true;
  if (node.children.some((child) => child.type === 'visibility_modifier' && child.text === 'pub')) return true;
  if (container?.type === 'trait_item') return true;
  return container?.type === 'impl_item' && container.childForFieldName('trait') !== null;
}

function javaPublic(node: Node, _name: string, container: Node | null): boolean {
  const modifiers = node.children.find((child) => child.type === 'modifiers');
  if (modifiers?.children.some((child) => child.type === 'public')) return true;
  // Interface members are public without saying so.
  return container?.type === 'interface_declaration' || container?.type === 'annotation_type_declaration';
}

const ECMASCRIPT: SyntaxRules = {
  localScopes: new Set(ECMASCRIPT_SCOPES),
  containers: ECMASCRIPT_CONTAINERS,
  isPublic: ecmascriptPublic,
};

export const SYNTAX_RULES: Readonly<Record<CodeLanguage, SyntaxRules>> = {
  typescript: ECMASCRIPT,
  tsx: ECMASCRIPT,
  javascript: ECMASCRIPT,
  python: {
    localScopes: new Set(['function_definition', 'lambda']),
    containers: { class_definition: 'type' },
    isPublic: (_node, name) => !name.startsWith('_'),
  },
  go: {
    // Methods name their type in the receiver, not by nesting: see receiverType.
    localScopes: new Set(['function_declaration', 'method_declaration', 'func_literal']),
    containers: {},
    isPublic: (_node, name) => /^\p{Lu}/u.test(name),
  },
  rust: {
    localScopes: new Set(['function_item', 'closure_expression']),
    containers: { impl_item: 'type', trait_item: 'type', mod_item: 'module' },
    isPublic: rustPublic,
  },
  java: {
    localScopes: new Set([
      'method_declaration',
      'constructor_declaration',
      'lambda_expression',
      'static_initializer',
      'object_creation_expression',
    ]),
    containers: {
      class_declaration: 'type',
      interface_declaration: 'type',
      enum_declaration: 'type',
      record_declaration: 'type',
      annotation_type_declaration: 'type',
    },
    isPublic: javaPublic,
  },
};

/** `Foo` of `Foo`, `*Foo`, `&mut Foo<T>`, `pkg.Foo`, `a::b::Foo`. */
export function baseTypeName(node: Node | null): string | null {
  for (let depth = 0; node && depth < 8; depth++) {
    if (node.type === 'type_identifier' || node.type === 'identifier') return node.text;
    node =
      node.childForFieldName('type') ??
      node.childForFieldName('name') ??
      node.namedChildren.find((child) => child.type !== 'lifetime' && child.type !== 'mutable_specifier') ??
      null;
  }
  return null;
}

/** The name a container gives its members' `container`. */
export function containerName(container: Node): string | null {
  if (container.type === 'impl_item') return baseTypeName(container.childForFieldName('type'));
  const name = container.childForFieldName('name');
  if (name) return name.text;
  // `const Foo = class { … }`: the class is known by its variable.
  const parent = container.parent;
  return parent?.type === 'variable_declarator' ? (parent.childForFieldName('name')?.text ?? null) : null;
}

/** A Go method's receiver type: `Server` of `func (s *Server[T]) Start()`. */
export function receiverType(method: Node): string | null {
  const receiver = method.childForFieldName('receiver');
  const parameter = receiver?.namedChildren.find((child) => child.type === 'parameter_declaration');
  return baseTypeName(parameter?.childForFieldName('type') ?? null);
}

const KIND_BY_NODE: Readonly<Record<string, CodeSymbolKind>> = {
  enum_item: 'enum',
  enum_declaration: 'enum',
  type_item: 'type',
  type_alias_declaration: 'type',
  type_alias: 'type',
  struct_item: 'class',
  union_item: 'class',
  trait_item: 'interface',
  mod_item: 'module',
};

/**
 * The kind a definition gets, from the tag's kind and the node: tags.scm calls every Rust ADT a
 * class and every Go type a type, and a function is a method exactly when a type holds it.
 * Null drops the definition (Rust macros; Java fields that are not static final).
 */
export function symbolKind(tagKind: string, node: Node, role: ContainerRole | null): CodeSymbolKind | null {
  if (node.type === 'method_declaration' && node.childForFieldName('receiver')) return 'method';
  if (tagKind === 'function' || tagKind === 'method') return role === 'type' ? 'method' : 'function';
  if (node.type === 'type_spec') {
    const type = node.childForFieldName('type')?.type;
    return type === 'struct_type' ? 'class' : type === 'interface_type' ? 'interface' : 'type';
  }
  if (tagKind === 'field') {
    const modifiers = node.children.find((child) => child.type === 'modifiers');
    const words = new Set(modifiers?.children.map((child) => child.type));
    return words.has('static') && words.has('final') ? 'constant' : null;
  }
  if (Object.hasOwn(KIND_BY_NODE, node.type)) return KIND_BY_NODE[node.type];
  switch (tagKind) {
    case 'class':
    case 'interface':
    case 'type':
    case 'enum':
    case 'constant':
    case 'module':
      return tagKind;
    default:
      return null;
  }
}
