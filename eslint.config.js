// ESLint with typescript-eslint's type-aware rules: they catch the async mistakes the compiler lets through
// (a promise nobody awaits, an async function where a void callback is expected, awaiting a non-promise)
// and a switch over a union that misses a member. Formatting is Prettier's job (pnpm format), not ESLint's.
import js from '@eslint/js'
import { defineConfig } from 'eslint/config'
import tseslint from 'typescript-eslint'

export default defineConfig(
  {
    // Data, generated output and caches; prose and data folders hold no code.
    ignores: ['**/node_modules/**', 'dist/**', 'reports/**', '.cache/**', 'fixtures/**', 'corpus/**', 'baseline/**', 'evals/**'],
  },
  {
    files: ['**/*.ts', '**/*.js', '**/*.mjs'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        projectService: {
          // Files outside tsconfig.json's program get tsconfig.lint.json's types (see its header).
          allowDefaultProject: [
            'eslint.config.js',
            'scripts/*.mjs',
            'examples/*/*.ts',
            'examples/*/*.mjs',
            'examples/*/src/*.ts',
            'examples/*/permissions/*.ts',
          ],
          defaultProject: 'tsconfig.lint.json',
          // Three examples and the scripts are more than the default 8 files; a dozen files cost nothing noticeable.
          maximumDefaultProjectFileMatchCount_THIS_WILL_SLOW_DOWN_LINTING: 24,
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // The async mistakes this configuration is for, as errors.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A `default:` does not count as exhaustive: a union that grows gets its new member handled explicitly.
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      // TypeScript already reports undefined names (typescript-eslint's advice), and knows Node's globals.
      'no-undef': 'off',
      // `async` without `await` is how this codebase implements a Promise-returning interface: a throw then
      // becomes a rejection, as callers expect.
      '@typescript-eslint/require-await': 'off',
      // `_name` marks a deliberately unused binding; `{ dropped, ...rest }` is how an object loses a key.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.test.ts'],
    rules: {
      // Vitest types its asymmetric matchers (expect.any, expect.closeTo, expect.not.arrayContaining) as `any`.
      '@typescript-eslint/no-unsafe-assignment': 'off',
    },
  },
  {
    files: ['src/statistics/normal-quantile.ts'],
    rules: {
      // Wichura's AS 241 coefficients keep their published 20 digits, more than a double holds.
      'no-loss-of-precision': 'off',
    },
  },
)
