import { configDefaults, defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // The default reporter stays for people; the evaluation reporter comes last so the run ends with the
    // metrics and the regressions table. In CI (CI set) the JSON results also feed .ci/run's summary line.
    reporters: [
      'default',
      ...(process.env.CI ? [['json', { outputFile: 'reports/vitest-results.json' }] as ['json', { outputFile: string }]] : []),
      './src/vitest/eval-reporter.ts',
    ],
    setupFiles: ['src/vitest/setup-matchers.ts'],
    // Watch mode: the evaluation depends on the corpus, the golden set, the config, the baseline and all of
    // src/ (run by the global setup in a child process, so no import graph sees it): any change re-runs it.
    // Patterns are matched against absolute paths, hence the leading **/.
    forceRerunTriggers: [...configDefaults.forceRerunTriggers, '**/corpus/**', '**/evals/**/*.json', '**/baseline/**', '**/src/**/*.ts'],
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
