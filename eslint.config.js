import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { clientBoundaries } from './client/client-boundaries.js';

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'client/dist', 'coverage', '.tmp'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  // Piscina's thread entries are CommonJS (render-worker-entry.cjs says why).
  { files: ['**/*.cjs'], languageOptions: { sourceType: 'commonjs', globals: globals.node } },
  {
    files: ['**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.name='eval']", message: 'Never eval: programs are untrusted input.' },
        { selector: "NewExpression[callee.name='Function']", message: 'Never new Function: programs are untrusted input.' },
      ],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  // Pages stand side by side: no page imports another, and nothing shared imports a page.
  ...clientBoundaries,
  {
    // Review works on items (its queue, leases, reviews and re-queues); items reach into none of
    // that, so the two folders depend one way: review → items.
    files: ['server/items/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.\\./)+review/', message: 'server/items imports nothing from server/review (review → items, one way): move what both read to items/.' }] },
      ],
    },
  },
  {
    // shared/ is pure: no Node or DOM I/O, so both sides and the CLI can import it.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['node:*', 'fs', 'path', 'better-sqlite3', 'express', 'react'] }],
    },
  },
);
