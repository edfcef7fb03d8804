// @ts-check
import eslint from '@eslint/js';
import prettier from 'eslint-config-prettier';
import globals from 'globals';
import tseslint from 'typescript-eslint';
import cairn from './tools/lint/cairn-eslint-plugin.cjs';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'eslint.config.mjs',
      'jest.config.js',
      'test/node-environment.js',
      'deploy/jest.config.js',
      '.tools/**',
      'tools/lint/*.cjs',
      '.dependency-cruiser.cjs',
      // Generated from the OpenAPI document by `npm run cli:openapi`.
      'apps/cli/src/api/openapi.ts',
      // Generated the same way by `npm run console:openapi`.
      'apps/console/src/api/openapi.ts',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      globals: { ...globals.node, ...globals.jest },
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Read configuration through @cairn/config (DESIGN §11.4).' },
      ],
    },
  },
  {
    // The web console runs in the browser (apps/console/tsconfig.json gives it the DOM types).
    files: ['apps/console/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    // Plain ES modules that tests run as child processes (the test IdP: oidc-provider ships only
    // ES modules): outside the TypeScript project, so linted without type information.
    files: ['**/*.mjs'],
    ...tseslint.configs.disableTypeChecked,
  },
  // The library layout (docs/architecture.md): folders, file kinds, database access by repositories only.
  ...cairn.layoutConfigs,
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', 'apps/*/test/**/*.ts', 'deploy/test/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // The configuration loader, test harness and local tooling are where the environment is read.
    files: ['libs/config/src/**/*.ts', 'test/**/*.ts', 'tools/**/*.ts', 'bench/**/*.ts', 'deploy/test/**/*.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
);
