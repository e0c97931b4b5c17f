import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // The JSON results feed .ci/run's "N passed, N failed" line; the default reporter stays for people.
    reporters: ['default', ['json', { outputFile: 'reports/vitest-results.json' }]],
    setupFiles: ['src/vitest/setup-matchers.ts'],
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['src/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'eval',
          include: ['evals/**/*.eval.ts'],
          // Runs the evaluation once per Vitest run and provides it to every case (never once per file or worker).
          globalSetup: ['src/vitest/global-setup.ts'],
        },
      },
    ],
  },
})
