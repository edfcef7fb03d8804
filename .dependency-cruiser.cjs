// @ts-check
/**
 * The import rules of the library layout (docs/architecture.md, DESIGN §11 1a), checked by
 * dependency-cruiser in `npm run lint`. Each rule names why it exists; a violation prints the
 * rule's name and the offending import.
 *
 * Vocabulary (paths under libs/<lib>/src/):
 *   contract/  schemas, DTOs, result views and types shared with adapters and other libraries
 *   root       services, repositories, SQL statement builders, the capability module
 *   http/ mcp/ jobs/   adapters: controllers; tools, resources, prompts; job handlers
 *   migrations/        schema migrations (db, tenancy)
 *   index.ts   the library's only entry point for everyone else
 */

/** Files that may reach the database: repositories, their statement builders, entities, modules (TypeORM wiring). */
const DATABASE_CLIENTS = [
  '\\.repository\\.ts$',
  '\\.sql\\.ts$',
  // Example arguments of repository methods for the SQL snapshots (ids of the example rows).
  '\\.sql-examples\\.ts$',
  '\\.entity\\.ts$',
  '\\.module\\.ts$',
  '^libs/db/',
  '/migrations/',
  // The tenant half of the database layer: TenantDb (the tenant transaction's connection, for
  // repositories) and the tenant migrator (migration lists, and the EntityManager of the
  // provisioning transaction it hands on to TenantMigrationsRepository). Neither has SQL of its own.
  '^libs/tenancy/src/tenant-(db|migrator)\\.service\\.ts$',
  '^libs/tenancy/src/tenant-scope\\.ts$',
  // Tests, harnesses, benchmarks and local tooling set databases up and inspect them.
  '\\.spec\\.ts$',
  '\\.e2e-spec\\.ts$',
  '^apps/[^/]+/test/',
  '^test/',
  '^bench/',
  '^tools/',
];

const { TIERS } = require('./tools/lint/library-tiers.cjs');

/** `^libs/(a|b|…)/`: the libraries of the given tiers (tools/lint/library-tiers.cjs). */
const librariesOf = (/** @type {(keyof typeof TIERS)[]} */ ...tiers) =>
  `^libs/(${tiers.flatMap((tier) => Object.keys(TIERS[tier])).join('|')})/`;

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment:
        'A cycle (type-only imports included) means two files cannot be understood, tested or moved apart. Break it by moving the shared part down (into contract/ or a library of its own).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'libraries-through-entry-points',
      severity: 'error',
      comment:
        'Another library is reached only through its index.ts (@cairn/<lib>), so a library may reorganise its insides without breaking anyone, and its public surface is one file to review.',
      from: { path: '^libs/([^/]+)/' },
      to: { path: '^libs/[^/]+/src/', pathNot: ['^libs/$1/', '^libs/[^/]+/src/index\\.ts$'] },
    },
    {
      name: 'apps-through-entry-points',
      severity: 'error',
      comment: 'Apps, tools, tests and benchmarks use libraries through their @cairn/<lib> entry points only.',
      from: { path: '^(apps|tools|bench|test|deploy)/' },
      to: { path: '^libs/[^/]+/src/', pathNot: '^libs/[^/]+/src/index\\.ts$' },
    },
    {
      name: 'adapters-never-import-adapters',
      severity: 'error',
      comment:
        'http/, mcp/ and jobs/ are independent ways in to the same use cases: what two of them share belongs in the library root (a service) or in contract/ (a schema or a view).',
      from: { path: '^libs/([^/]+)/src/(http|mcp|jobs)/' },
      to: { path: '^libs/$1/src/(http|mcp|jobs)/', pathNot: '^libs/$1/src/$2/' },
    },
    {
      name: 'root-never-imports-adapters',
      severity: 'error',
      comment:
        'Services and repositories do not know how they are called; adapters import them, never the reverse (only index.ts exports adapter modules).',
      from: { path: '^libs/([^/]+)/src/[^/]+\\.ts$', pathNot: ['/index\\.ts$', '\\.spec\\.ts$'] },
      to: { path: '^libs/$1/src/(http|mcp|jobs)/' },
    },
    {
      name: 'contract-is-a-leaf',
      severity: 'error',
      comment:
        "contract/ is what the library promises to the outside: it may use other libraries' contracts and schema tooling, never its own services, repositories or adapters.",
      from: { path: '^libs/([^/]+)/src/contract/' },
      to: { path: '^libs/$1/src/', pathNot: '^libs/$1/src/contract/' },
    },
    {
      name: 'only-repositories-reach-the-database',
      severity: 'error',
      comment:
        'SQL and the database client live in *.repository.ts (and the *.sql.ts statement builders beside them), so every query is in one reviewable place and services stay testable without a database (DESIGN §11.3).',
      from: { pathNot: DATABASE_CLIENTS },
      to: { path: ['^node_modules/(typeorm|pg|@nestjs/typeorm|pg-[^/]+)/', '^libs/db/src/'] },
    },
    {
      name: 'statement-builders-serve-repositories',
      severity: 'error',
      comment: '*.sql.ts files render SQL text for repositories; a service using one would be writing SQL.',
      from: { pathNot: ['\\.repository\\.ts$', '\\.sql\\.ts$', '\\.spec\\.ts$', '^bench/', '^test/', '/index\\.ts$'] },
      to: { path: '\\.sql\\.ts$' },
    },
    {
      name: 'sql-examples-serve-repositories',
      severity: 'error',
      comment:
        '*.sql-examples.ts hold the example arguments repositories declare for the SQL snapshots (@SqlSnapshot); nothing else has a use for them.',
      from: { pathNot: ['\\.repository\\.ts$', '\\.sql-examples\\.ts$', '\\.spec\\.ts$'] },
      to: { path: '\\.sql-examples\\.ts$' },
    },
    {
      name: 'engines-never-import-features',
      severity: 'error',
      comment:
        'Platform and engine libraries serve every feature and know none of them (tools/lint/library-tiers.cjs): what a feature shares with an engine moves down into the engine, never the reverse.',
      from: { path: librariesOf('platform', 'engines') },
      to: { path: librariesOf('features') },
    },
    {
      name: 'platform-never-imports-engines',
      severity: 'error',
      comment:
        'The platform (configuration, database, tenancy, identities, audit, projects) is what every process runs on; it depends on no engine, so any process can run it alone (tools/lint/library-tiers.cjs).',
      from: { path: librariesOf('platform') },
      to: { path: librariesOf('engines') },
    },
    {
      name: 'one-entry-into-a-tenant',
      severity: 'error',
      comment:
        "A tenant's scope (AsyncLocalStorage) is started by TenantEntry alone and read by the context, transaction and db services: work enters a tenant in one reviewed place (live check, context, transaction), never by hand.",
      from: { pathNot: '^libs/tenancy/src/tenant-(entry|context|transaction|db)\\.service\\.ts$' },
      to: { path: '^libs/tenancy/src/tenant-scope\\.ts$' },
    },
    {
      name: 'apps-are-thin',
      severity: 'error',
      comment: 'Apps wire libraries together; behaviour lives in libs/ (DESIGN §2).',
      from: { path: '^apps/[^/]+/src/' },
      to: { path: '^apps/[^/]+/(test)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^dist/', '^\\.tools/', '^coverage/'] },
    // Type-only imports are dependencies too: a type cycle is still a cycle.
    tsPreCompilationDeps: true,
    // Resolve node_modules by their link, not their target, so rules about node_modules/ hold in linked installs.
    preserveSymlinks: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
