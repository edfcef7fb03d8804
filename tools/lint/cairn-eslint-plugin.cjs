// @ts-check
/**
 * ESLint rules for the library layout (docs/architecture.md) that an import graph cannot see:
 * which folders a library has, and that a file's name says what kind of class it holds.
 * The import rules themselves are dependency-cruiser's (.dependency-cruiser.cjs).
 */
const path = require('node:path');

/** The folders a capability library may have under src/, one level deep. */
const FOLDERS = ['contract', 'http', 'mcp', 'jobs', 'migrations'];

/** Kinds an injectable class's file may carry: `<name>.<kind>.ts`. */
const INJECTABLE_KINDS = [
  'service',
  'repository',
  'guard',
  'interceptor',
  'filter',
  'pipe',
  'registry',
  'factory',
  'tool',
  'resource',
  'prompt',
  'job-handler',
  'processor',
];

/**
 * Decorators that fix a class's kind, and the folder it must live in (null: the library root
 * or any folder). Adapters live in their adapter folder, so where a thing is says what it is.
 */
const DECORATED = {
  Controller: { kinds: ['controller'], folder: 'http' },
  McpTool: { kinds: ['tool'], folder: 'mcp' },
  McpResource: { kinds: ['resource'], folder: 'mcp' },
  McpPrompt: { kinds: ['prompt'], folder: 'mcp' },
  JobHandler: { kinds: ['job-handler'], folder: 'jobs' },
  Module: { kinds: ['module'], folder: null },
  Entity: { kinds: ['entity'], folder: null },
  Catch: { kinds: ['filter'], folder: null },
  Injectable: { kinds: INJECTABLE_KINDS, folder: null },
};

/** `libs/<lib>/src/<folder?>/<file>` of a file, or null outside a library's sources. */
function libraryPlace(filename, cwd) {
  const relative = path.relative(cwd, filename).split(path.sep).join('/');
  const match = /^libs\/([^/]+)\/src\/(.+)$/.exec(relative);
  if (!match) return null;
  const parts = match[2].split('/');
  return { library: match[1], folders: parts.slice(0, -1), file: parts[parts.length - 1] };
}

function decoratorName(decorator) {
  const expression = decorator.expression;
  const callee = expression.type === 'CallExpression' ? expression.callee : expression;
  return callee.type === 'Identifier' ? callee.name : null;
}

/** @type {import('eslint').Rule.RuleModule} */
const libraryLayout = {
  meta: {
    type: 'problem',
    docs: { description: 'One layout for every library: its folders, and file names that carry their kind.' },
    schema: [],
    messages: {
      folder:
        'libs/{{library}}/src/{{folders}}/ is not part of the library layout: use the root, or one of contract/, http/, mcp/, jobs/, migrations/ (docs/architecture.md).',
      kind: 'A class decorated with @{{decorator}} lives in a file named <name>.{{kinds}}.ts, so its name says what it is.',
      place: 'A class decorated with @{{decorator}} is an adapter: it lives in libs/{{library}}/src/{{folder}}/.',
      contract: 'contract/ holds schemas, DTOs, views and types: no @{{decorator}} classes.',
      barrel: "index.ts names what the library offers: export named items, not a whole file ('export *').",
    },
  },
  create(context) {
    const place = libraryPlace(context.filename, context.cwd);
    if (!place || /\.(e2e-)?spec\.ts$/.test(place.file)) return {};
    return {
      Program(node) {
        const { folders } = place;
        if (folders.length > 1 || (folders.length === 1 && !FOLDERS.includes(folders[0]))) {
          context.report({ node, messageId: 'folder', data: { library: place.library, folders: folders.join('/') } });
        }
      },
      ExportAllDeclaration(node) {
        if (place.folders.length === 0 && place.file === 'index.ts') context.report({ node, messageId: 'barrel' });
      },
      'ClassDeclaration, ClassExpression'(node) {
        for (const decorator of node.decorators ?? []) {
          const name = decoratorName(decorator);
          const rule = name ? DECORATED[name] : undefined;
          if (!rule) continue;
          const folder = place.folders[0] ?? null;
          if (folder === 'contract') {
            context.report({ node: decorator, messageId: 'contract', data: { decorator: name } });
          }
          if (!rule.kinds.some((kind) => place.file.endsWith(`.${kind}.ts`))) {
            context.report({
              node: decorator,
              messageId: 'kind',
              data: { decorator: name, kinds: rule.kinds.join('|') },
            });
          }
          if (rule.folder && folder !== rule.folder) {
            context.report({
              node: decorator,
              messageId: 'place',
              data: { decorator: name, library: place.library, folder: rule.folder },
            });
          }
        }
      },
    };
  },
};

/** Libraries are imported through their alias, never by path (DESIGN §11.1). */
const ALIAS_PATTERNS = [
  {
    group: ['../../libs/*', '../../../libs/*', '**/libs/*/src/*', '../../*/src/*', '../../../*/src/*'],
    message: 'Import libraries through their @cairn/* alias.',
  },
];

/**
 * Named imports that only repositories (and the database layer itself) may use: the tenant
 * transaction's connection, and the connections to a tenant's cluster (a data source queried
 * needs no import of TypeORM, so dependency-cruiser cannot see it).
 */
const DATABASE_IMPORT_PATHS = [
  {
    name: '@cairn/tenancy',
    importNames: ['TenantDb', 'TenantConnections'],
    message: 'Only repositories (*.repository.ts) query the database (DESIGN §11.3): call a repository.',
  },
];

/**
 * Files of libraries allowed to use the database layer's named imports. libs/tenancy itself
 * imports its own files by path, never `@cairn/tenancy`, so it needs no entry here.
 */
const DATABASE_CLIENT_FILES = ['libs/**/*.repository.ts', 'libs/**/*.spec.ts'];

const plugin = { meta: { name: 'cairn' }, rules: { 'library-layout': libraryLayout } };

/** The layout rules as flat-config entries: used by eslint.config.mjs and by the lint test. */
const layoutConfigs = [
  { rules: { 'no-restricted-imports': ['error', { patterns: ALIAS_PATTERNS }] } },
  {
    files: ['libs/**/*.ts'],
    plugins: { cairn: plugin },
    rules: { 'cairn/library-layout': 'error' },
  },
  {
    files: ['libs/**/*.ts'],
    ignores: DATABASE_CLIENT_FILES,
    rules: { 'no-restricted-imports': ['error', { patterns: ALIAS_PATTERNS, paths: DATABASE_IMPORT_PATHS }] },
  },
];

module.exports = { plugin, layoutConfigs, FOLDERS, INJECTABLE_KINDS };
