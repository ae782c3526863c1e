// ESLint flat config: typescript-eslint on every TypeScript file, plus the layering rules of docs/design/001-architecture.md.
import tseslint from 'typescript-eslint';
import globals from 'globals';

const sdkAndHttp = [
  { group: ['@modelcontextprotocol/*'], message: 'SDK types stay in the edge adapters (src/transport/sdk, src/http, src/cli).' },
  { group: ['hono', 'hono/*', '@hono/*'], message: 'HTTP framework code stays in src/http.' },
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'dist/**', 'data/**', '.conformance/**', '.scratch/**', 'schema/**'] },
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/protocol/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...sdkAndHttp, { group: ['node:*', '../*'], message: 'protocol/ is pure: no I/O and no other layer.' }] }],
    },
  },
  {
    files: ['src/translation/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...sdkAndHttp, { group: ['node:*', '../gateway/*', '../transport/*', '../http/*', '../cli/*', '../config/*'], message: 'translation/ is pure: only protocol/ and itself.' }] }],
    },
  },
  {
    files: ['src/gateway/**/*.ts', 'src/config/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...sdkAndHttp, { group: ['node:http', 'node:https', 'node:net', '../http/*', '../cli/*'], message: 'the core does not reach the edges.' }] }],
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/cli/**'],
    rules: { 'no-console': 'error' },
  },
);
