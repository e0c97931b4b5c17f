import { join } from 'node:path'
import { defineConfig } from 'vitest/config'
// This repository evaluates itself through the package's public entry point (src/vitest/index.ts is
// what `rag-vitest-eval/vitest` exports), reading rag-eval.config.ts like any user's project.
import { ragEval } from './src/vitest/index.ts'
import { TEST_HANG_LIMIT_MS } from './src/testing/hang-limit.ts'
import { PACKAGE_PROJECT, PackageFilesSequencer } from './src/testing/package-files-sequencer.ts'

// These test files share nothing through module state or the process (no mocks, environment changes, registered
// secrets or servers left running; three shuffled runs passed), so each worker runs them in one module graph
// (isolate: false) instead of loading a fresh one per file: whole folders, then single files of folders whose
// other files do not qualify.
const SHARED_MODULE_GRAPH = [
  ...[
    'builtin',
    'calibration',
    'charts',
    'cli',
    'compare',
    'config',
    'contract',
    'gate',
    'golden',
    'init',
    'judge',
    'load',
    'model-server',
    'report',
    'scoring',
    'statistics',
    'summary',
    'text',
    'threads',
    'trec',
  ].map((folder) => `src/${folder}/**/*.test.ts`),
  ...[
    'architecture',
    'hints-name-user-commands',
    'readme-links',
    'authoring/add/add',
    'authoring/append-policy',
    'authoring/draft/draft',
    'authoring/harvest/harvest',
    'authoring/one-facts-extractor',
    'authoring/review/review-card',
    'authoring/review/rewrite-question',
    'authoring/verify/verify',
    'files/json-syntax-error',
    'files/utf8-text',
    'model/base-url',
    'model/disk-cache-concurrency',
    'model/model-client',
    'model/model-money',
    'model/model-units',
    'model/recording',
    'model/spending-cap',
    'model/stop-and-drain',
    'run/attacks',
    'run/evaluate',
    'run/follow-up-questions',
    'run/generator-diagnostics',
    'run/in-process-contract',
    'run/judge-answers',
    'run/model-modes',
    'run/model-modes-cli',
    'run/model-money',
    'run/permissions',
    'run/shard-assignment',
    'run/stages',
    'run/system-errors',
    'run/traps',
    'shard/shard-witness',
    'shard/sharded-run',
    'system/complete-answer',
    'system/context-packer',
    'system/http-contract',
    'system/http-system',
    'system/in-process-system',
    'testing/no-speed-budgets',
    'testing/package-files-sequencer',
    'testing/synthetic-corpus',
    'vitest/compare-mode',
    'vitest/evaluation-host',
    'vitest/gate-run',
    'vitest/merged-view',
    'vitest/shared-run',
    'vitest/question-case-plan',
    'vitest/unmeasured-runs',
  ].map((file) => `src/${file}.test.ts`),
]
const NO_SPEED_BUDGET = { testTimeout: TEST_HANG_LIMIT_MS, hookTimeout: TEST_HANG_LIMIT_MS }

export default defineConfig({
  test: {
    // Vite's transforms of this repository's TypeScript are kept between runs (node_modules/.experimental-vitest-cache),
    // so the eval project's global setup, reporter and case modules load without being transformed again. This cache
    // breaks jiti in Vitest's main process; the package loads its own modules with jiti only in the evaluation's thread.
    experimental: { fsModuleCache: true },
    // The default reporter stays for people; ragEval() adds the evaluation reporter, which comes last so the
    // run ends with the metrics and the regressions table. In CI (CI set) the JSON results also feed .ci/run's summary line.
    reporters: [
      'default',
      ...(process.env.CI ? [['json', { outputFile: 'reports/vitest-results.json' }] as ['json', { outputFile: string }]] : []),
      // EVAL_HTML=1: Vitest's own html reporter writes a static Vitest UI of the run, every case with its annotations
      // (evidence, charts), to <reports>/html/ (docs/charts.md: open it with `npx vite preview --outDir reports/html`).
      ...(process.env.EVAL_HTML
        ? [
            ['html', { outputFile: join(process.env.EVAL_REPORTS_DIR ?? 'reports', 'html/index.html') }] as [
              'html',
              { outputFile: string },
            ],
          ]
        : []),
    ],
    // Three test files at a time on two cores: the long ones mostly wait on child processes and local servers
    // (Vitest's default on two cores is one file at a time).
    maxWorkers: 3,
    // The package project's files wait for the tarball: most of them start after the shared-module files
    // (src/testing/package-files-sequencer.ts). --sequence.shuffle keeps Vitest's random order, which a sequencer replaces.
    ...(process.argv.some((arg) => arg.startsWith('--sequence.shuffle'))
      ? {}
      : { sequence: { sequencer: PackageFilesSequencer } }),
    // One temp folder for the whole run; anything a test leaves in it fails the run.
    globalSetup: ['src/testing/temp-hygiene.global-setup.ts'],
    // No project says `extends: true`: each that does makes Vite bundle and load this file again (a start-up
    // cost; docs/scaling.md), and the root's options they would inherit (the global setup above,
    // maxWorkers, the module cache, the reporters) apply to the whole run anyway.
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts'],
          exclude: SHARED_MODULE_GRAPH,
          // Its tests spawn the rag-eval bin from one bundle of the sources, made here (src/testing/rag-eval-bin.ts).
          globalSetup: ['src/testing/rag-eval-bin.global-setup.ts'],
          // No verdict may depend on the machine's speed (docs/reliability.md): tests wait for events, and these
          // limits only catch a hang. Vitest's defaults (5 s a test, 10 s a hook) are budgets that tests spawning
          // processes or evaluating a golden set overran on two busy cores; no test sets a lower one.
          ...NO_SPEED_BUDGET,
        },
      },
      {
        test: {
          name: 'shared-modules',
          include: SHARED_MODULE_GRAPH,
          isolate: false,
          // Some of its tests spawn the bin too; in a run of both projects the second setup finds the bundle made.
          globalSetup: ['src/testing/rag-eval-bin.global-setup.ts'],
          ...NO_SPEED_BUDGET,
        },
      },
      ragEval(),
      // The package as users get it: packed once (its global setup), installed into fresh temp projects, run with
      // their commands. Minutes of work, so it runs once (`vitest run`, CI), not on every change in watch mode; in
      // several files, which run beside the unit tests.
      ...(process.env.CI || process.argv.includes('run')
        ? [
            {
              test: {
                name: PACKAGE_PROJECT,
                include: ['examples/**/*.test.ts'],
                globalSetup: ['examples/packed-tarball.global-setup.ts'],
                // Its files share no module state but the tarball's path and do their work in child processes: threads
                // sharing one module graph load zod and the report schema once per worker, not once per file.
                pool: 'threads',
                isolate: false,
                // Packing, installing and type-checking took up to about 4 minutes a test on two busy cores.
                testTimeout: 3 * TEST_HANG_LIMIT_MS,
                hookTimeout: 3 * TEST_HANG_LIMIT_MS,
              },
            },
          ]
        : []),
    ],
  },
})
