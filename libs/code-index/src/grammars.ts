import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { type CodeLanguage } from './languages';

/**
 * Where each language's grammar and tag queries come from. The grammar packages' own
 * `queries/tags.scm` (GitHub's code-navigation queries) find most definitions and calls; the
 * queries below add what they leave out (TypeScript types and enums, exported constants, Rust and
 * Java constants, type references). Captures follow tags.scm: `@name` is the identifier and
 * `@definition.<kind>` / `@reference.<kind>` the node it names; `@definition.field` marks a Java
 * field, a constant only when static and final.
 */

/** A file inside an installed package: resolved from its package.json, wherever npm put it. */
function packageFile(pkg: string, file: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), file);
}

/** Valid in the JavaScript, TypeScript and TSX grammars alike. */
const ECMASCRIPT_EXTRA = `
(export_statement
  declaration: (lexical_declaration
    kind: "const"
    (variable_declarator name: (identifier) @name) @definition.constant))
(decorator (identifier) @name) @reference.call
`;

/** The JavaScript grammar's class syntax (TypeScript names these nodes differently). */
const JAVASCRIPT_EXTRA = `
(class_heritage (identifier) @name) @reference.class
(class_heritage (member_expression property: (property_identifier) @name)) @reference.class
(field_definition
  property: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @definition.method
`;

const TYPESCRIPT_EXTRA = `
(type_alias_declaration name: (type_identifier) @name) @definition.type
(enum_declaration name: (identifier) @name) @definition.enum
(internal_module name: (_) @name) @definition.module
(public_field_definition
  name: (property_identifier) @name
  value: [(arrow_function) (function_expression)]) @definition.method
(extends_clause value: (identifier) @name) @reference.class
(type_identifier) @name @reference.type
`;

/** Components only: lower-case JSX elements are HTML tags, not names in the code. */
const JSX_EXTRA = `
((jsx_opening_element name: (identifier) @name) @reference.class (#match? @name "^[A-Z]"))
((jsx_self_closing_element name: (identifier) @name) @reference.class (#match? @name "^[A-Z]"))
(jsx_opening_element name: (member_expression property: (property_identifier) @name)) @reference.class
(jsx_self_closing_element name: (member_expression property: (property_identifier) @name)) @reference.class
`;

const PYTHON_EXTRA = `
(class_definition superclasses: (argument_list (identifier) @name)) @reference.class
(class_definition superclasses: (argument_list (attribute attribute: (identifier) @name))) @reference.class
(type (identifier) @name) @reference.type
(generic_type (identifier) @name) @reference.type
(decorator (identifier) @name) @reference.call
`;

const GO_EXTRA = `
(source_file (const_declaration (const_spec name: (identifier) @name) @definition.constant))
(type_alias name: (type_identifier) @name) @definition.type
`;

const RUST_EXTRA = `
(const_item name: (identifier) @name) @definition.constant
(static_item name: (identifier) @name) @definition.constant
(declaration_list (function_signature_item name: (identifier) @name) @definition.method)
(type_identifier) @name @reference.type
(call_expression function: (scoped_identifier name: (identifier) @name)) @reference.call
(macro_invocation macro: (scoped_identifier name: (identifier) @name)) @reference.call
`;

const JAVA_EXTRA = `
(enum_declaration name: (identifier) @name) @definition.enum
(record_declaration name: (identifier) @name) @definition.class
(annotation_type_declaration name: (identifier) @name) @definition.interface
(constructor_declaration name: (identifier) @name) @definition.method
(field_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.field
(constant_declaration declarator: (variable_declarator name: (identifier) @name)) @definition.constant
(type_identifier) @name @reference.type
(marker_annotation name: (identifier) @name) @reference.type
(annotation name: (identifier) @name) @reference.type
`;

interface GrammarSource {
  /** [package, file] of the grammar's wasm build. */
  wasm: readonly [string, string];
  /** Query files shipped by packages, then our own additions. */
  tags: readonly (readonly [string, string])[];
  extra: string;
}

// TypeScript's tags.scm holds only what TypeScript adds: tree-sitter-typescript's own
// tree-sitter.json runs it after JavaScript's, and so do we.
const JAVASCRIPT_TAGS = ['tree-sitter-javascript', 'queries/tags.scm'] as const;
const TYPESCRIPT_TAGS = ['tree-sitter-typescript', 'queries/tags.scm'] as const;

const SOURCES: Readonly<Record<CodeLanguage, GrammarSource>> = {
  typescript: {
    wasm: ['tree-sitter-typescript', 'tree-sitter-typescript.wasm'],
    tags: [JAVASCRIPT_TAGS, TYPESCRIPT_TAGS],
    extra: ECMASCRIPT_EXTRA + TYPESCRIPT_EXTRA,
  },
  tsx: {
    wasm: ['tree-sitter-typescript', 'tree-sitter-tsx.wasm'],
    tags: [JAVASCRIPT_TAGS, TYPESCRIPT_TAGS],
    extra: ECMASCRIPT_EXTRA + TYPESCRIPT_EXTRA + JSX_EXTRA,
  },
  javascript: {
    wasm: ['tree-sitter-javascript', 'tree-sitter-javascript.wasm'],
    tags: [JAVASCRIPT_TAGS],
    extra: ECMASCRIPT_EXTRA + JAVASCRIPT_EXTRA + JSX_EXTRA,
  },
  python: {
    wasm: ['tree-sitter-python', 'tree-sitter-python.wasm'],
    tags: [['tree-sitter-python', 'queries/tags.scm']],
    extra: PYTHON_EXTRA,
  },
  go: {
    wasm: ['tree-sitter-go', 'tree-sitter-go.wasm'],
    tags: [['tree-sitter-go', 'queries/tags.scm']],
    extra: GO_EXTRA,
  },
  rust: {
    wasm: ['tree-sitter-rust', 'tree-sitter-rust.wasm'],
    tags: [['tree-sitter-rust', 'queries/tags.scm']],
    extra: RUST_EXTRA,
  },
  java: {
    wasm: ['tree-sitter-java', 'tree-sitter-java.wasm'],
    tags: [['tree-sitter-java', 'queries/tags.scm']],
    extra: JAVA_EXTRA,
  },
};

/** The absolute path of a language's wasm grammar. */
export function grammarWasmPath(language: CodeLanguage): string {
  return packageFile(...SOURCES[language].wasm);
}

/** The whole tag query of a language: the packages' tags.scm files, then our additions. */
export function tagQuerySource(language: CodeLanguage): string {
  const source = SOURCES[language];
  const files = source.tags.map(([pkg, file]) => readFileSync(packageFile(pkg, file), 'utf8'));
  return [...files, source.extra].join('\n');
}
