/**
 * One jest run for every tier: unit specs beside the code (`*.spec.ts`) and end-to-end
 * specs over real HTTP (`apps/<app>/test/*.e2e-spec.ts`). Integration and e2e specs talk
 * to the real PostgreSQL+pgvector and Redis that test/global-setup.ts provides.
 */
/** @type {import('jest').Config} */
module.exports = {
  rootDir: '.',
  testEnvironment: '<rootDir>/test/node-environment.js',
  // Transpile only (types are checked by `npm run typecheck`), with decorator metadata for Nest.
  transform: {
    '^.+\\.(ts|js)$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }],
  },
  // Dependencies that ship only ES modules are compiled to CommonJS like our own code (openid-client
  // and its oauth4webapi and jose too: Node requires them as they are, jest's VM cannot), and so is
  // @fastify/cookie, whose `import('cookie')` (ES modules) jest's VM refuses without --experimental-vm-modules,
  // and oidc-provider (Cairn's authorization server, ES modules only), and isbinaryfile (the CLI's
  // binary sniffer, ES modules only since 6: the built CLI requires it as Node allows, jest cannot).
  transformIgnorePatterns: [
    '/node_modules/(?!(content-disposition|@apidevtools/json-schema-ref-parser|@fastify/cookie|cookie|openid-client|oauth4webapi|jose|oidc-provider|isbinaryfile)/)',
  ],
  moduleFileExtensions: ['ts', 'js', 'json'],
  // bench/: the evaluation's own maths (BM25) and its CI subset, which guards retrieval quality.
  testMatch: ['<rootDir>/{apps,libs,tools,bench}/**/*.spec.ts', '<rootDir>/apps/**/test/**/*.e2e-spec.ts'],
  moduleNameMapper: {
    '^@cairn/testing$': '<rootDir>/test/utils',
    '^@cairn/api-app$': '<rootDir>/apps/api/src/api.module',
    '^@cairn/worker-app$': '<rootDir>/apps/worker/src/worker.module',
    '^@cairn/process-harness$': '<rootDir>/apps/api/test/process-harness',
    '^@cairn/gateway-harness$': '<rootDir>/apps/mcp-gateway/test/gateway-harness',
    '^@cairn/oauth-harness$': '<rootDir>/apps/mcp-gateway/test/oauth-harness',
    '^@cairn/mcp-gateway-app$': '<rootDir>/apps/mcp-gateway/src/mcp-gateway.module',
    '^@cairn/cli-recall-selection$': '<rootDir>/apps/cli/src/hooks/recall-selection',
    '^@cairn/cli-code-index$': '<rootDir>/apps/cli/src/commands/code-index/code-index-run',
    '^@cairn/(.*)$': '<rootDir>/libs/$1/src',
  },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 60_000,
  maxWorkers: 2,
};
