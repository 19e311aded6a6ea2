// ESLint over the TypeScript of src, migrations and test, with typescript-eslint's type-checked rules,
// and over the plain ESM of examples (ESLint's recommended rules; tsc checks their types, examples/tsconfig.json).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** The no-unsafe-* rules, off where values typed `any` are read field by field (each use says why). */
const UNSAFE_ANY_OFF = Object.fromEntries(
  ['no-unsafe-member-access', 'no-unsafe-assignment', 'no-unsafe-argument', 'no-unsafe-call', 'no-unsafe-return'].map((rule) => [`@typescript-eslint/${rule}`, 'off']),
);

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'coverage/', '.data/', 'openapi/', 'bench/', 'test/support/*.mjs'] },
  {
    files: ['**/*.ts'],
    extends: [js.configs.recommended, ...tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // A leading underscore marks a parameter or element kept for its position only.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrors: 'none' }],
      // A replayed answer is thrown by Commands.run and is no error (src/common/command.ts): it alone may be thrown besides errors.
      '@typescript-eslint/only-throw-error': ['error', { allow: [{ from: 'file', name: 'ReplayedAnswer' }] }],
    },
  },
  {
    files: ['examples/**/*.mjs'],
    extends: [js.configs.recommended],
    languageOptions: {
      sourceType: 'module',
      // Node's globals the examples use (the `globals` package is not a dependency).
      globals: Object.fromEntries(['process', 'console', 'Buffer', 'URL', 'fetch', 'Response'].map((name) => [name, 'readonly'])),
    },
  },
  {
    // The board page's script runs in the browser as a classic script.
    files: ['src/boards/page/*.js'],
    extends: [js.configs.recommended],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(['window', 'document', 'location', 'fetch', 'EventSource', 'setTimeout', 'encodeURIComponent', 'decodeURIComponent'].map((name) => [name, 'readonly'])),
    },
  },
  {
    // Tests read supertest's JSON bodies (typed `any`) field by field: typing every body is a follow-up.
    files: ['test/**/*.ts', 'src/**/*.spec.ts'],
    rules: UNSAFE_ANY_OFF,
  },
  {
    // These walk the OpenAPI document and build bodies of any shape from it: typing the walk is a follow-up.
    files: ['test/fuzz.e2e-spec.ts', 'test/nul.e2e-spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
);
