// The lint rules the team keeps (docs/architecture.md, "Habits"): type-aware typescript-eslint, files of at
// most 300 lines, no floating promises, sorted imports, no `any` outside tests. Layout and line width (120)
// are Prettier's job (npm run format); the import graph is dependency-cruiser's (npm run lint:graph).
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import simpleImportSort from 'eslint-plugin-simple-import-sort';
import tseslint from 'typescript-eslint';

/** Test code: test files, harnesses, fixtures' builders and benchmarks. */
const TEST_CODE = [
  '**/*.test.ts',
  '**/test/**/*.ts',
  '**/test-support/**/*.ts',
  '**/*.test-harness.ts',
  '**/*.contract.ts',
  '**/testing.ts',
  '**/testing/**/*.ts',
  'bench/**/*.ts',
];

export default defineConfig(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', 'coverage/**', 'test-results/**', 'bench/results/**'] },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: {
        // Type information for the rules about promises; files outside tsconfig.json (the browser-test
        // vitest config) get a default project.
        projectService: { allowDefaultProject: ['vitest.browser.config.ts', 'vitest.proxy.config.ts'] },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    plugins: { 'simple-import-sort': simpleImportSort },
    rules: {
      'max-lines': ['error', { max: 300 }],
      '@typescript-eslint/no-floating-promises': 'error',
      // Fastify and DOM handlers may return a promise where void is expected; arguments and spreads may not.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      '@typescript-eslint/await-thenable': 'error',
      'simple-import-sort/imports': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // Tests may run long (one behaviour per `it`, shared setup) and poke at untyped wire bodies.
    files: TEST_CODE,
    rules: { 'max-lines': 'off', '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The browser bundle (apps/landing/src/client) ships to visitors: nothing from Node or the server.
    files: ['apps/landing/src/client/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['node:*'], message: 'The client bundle runs in the browser.' },
            {
              regex: '^@platform/(?!attribution/form-source\\.vocabulary|contracts/attribution-fields|web/)',
              message:
                'The client bundle takes only browser-safe modules (@platform/attribution/form-source.vocabulary.js, @platform/contracts/attribution-fields.js, @platform/web).',
            },
            { regex: '^\\.\\./(?!client/)', message: 'The client bundle does not import server code.' },
          ],
        },
      ],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
