import { dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProjectInlineConfiguration } from 'vitest/config'
import type { Vitest } from 'vitest/node'
import type { RagEvalConfig } from '../config/project-config.ts'
import type { Shard } from '../run/shard-assignment.ts'
import { findConfigFile } from '../config/config-file.ts'
import {
  chooseEvaluationHost,
  discardPrewarmedHost,
  prewarmEvaluationHost,
  type DeclaredMode,
} from '../threads/evaluation-host.ts'
import { useShardCaseFile } from './shard-cases.ts'

/** ragEval()'s options: which config file, the project's name, and any config field inline (winning over the file's). */
export type RagEvalOptions = Partial<RagEvalConfig> & {
  /** rag-eval.config.ts to read; default RAG_EVAL_CONFIG, else rag-eval.config.(ts|mts|js|mjs) at the root. */
  config?: string
  /** The Vitest project's name (default 'eval'): `vitest --project eval`. */
  name?: string
}

/** What the global setup receives (through `provide`): plain JSON, since the evaluation may run in a child process. */
export interface RagEvalProjectOptions {
  config?: string
  inline?: Record<string, unknown>
  /** vitest --shard=i/n: the evaluation measures only shard i's questions (set by the global setup). */
  shard?: Shard
}

const HERE = dirname(fileURLToPath(import.meta.url))
const EXT = import.meta.url.endsWith('.ts') ? 'ts' : 'js'

/** Inline options cross a process boundary: an object or a function (a system) cannot, so it belongs in the config file. */
function serialisable(inline: Record<string, unknown>): Record<string, unknown> {
  for (const [key, value] of Object.entries(inline)) {
    if (
      typeof value === 'function' ||
      (typeof value === 'object' && value !== null && Object.values(value).some((v) => typeof v === 'function'))
    ) {
      throw new Error(
        `ragEval({ ${key} }): the evaluation may run in a child process (live and record runs, watch mode), so an object with methods cannot be passed inline; put it in rag-eval.config.ts (system: './src/rag.ts' or an object there)`,
      )
    }
  }
  return JSON.parse(JSON.stringify(inline)) as Record<string, unknown>
}

/**
 * The Vitest project of the evaluation: one case per golden question and one per gated metric (the
 * package's own case files), the custom matchers, the global setup that runs the evaluation once per
 * Vitest run, and the evaluation reporter (the metrics table and the regressions, after every run).
 *
 *     // vitest.config.ts
 *     export default defineConfig({ test: { projects: [ragEval()] } })
 */
export function ragEval(options: RagEvalOptions = {}): TestProjectInlineConfiguration {
  const { config, name = 'eval', ...inline } = options
  const provided: RagEvalProjectOptions = { ...(config === undefined ? {} : { config }), inline: serialisable(inline) }
  return {
    plugins: [
      {
        name: 'rag-vitest-eval',
        // A project cannot list root reporters or watch triggers, but its plugin may add them.
        async configureVitest({ vitest, project }) {
          if (project.name !== name) return
          // By path, not by instance: Vitest loads it when it makes the reporters, so loading vitest.config.ts
          // (which Vite bundles, with everything it imports, for every project) stays light.
          const reporters = vitest.config.reporters as unknown as [string, unknown][]
          reporters.push([`${HERE}/eval-reporter.${EXT}`, name])
          // --shard=i/n: this shard's question cases, in a case file of its own (shard-cases.ts).
          if (vitest.config.shard) useShardCaseFile(vitest, project, vitest.config.shard, `${HERE}/cases`, EXT)
          // --merge-reports evaluates nothing (the reporter merges the shards' measurements).
          if (vitest.config.mergeReports) return
          const watch = vitest.config.watch
          // Decided before any host loads: a live or record run never loads the evaluation in a thread first.
          prewarmEvaluationHost(name, chooseEvaluationHost({ watch, mode: await declaredMode(vitest, provided) }))
          vitest.onClose(() => discardPrewarmedHost(name))
          if (!watch) return
          // Watch mode: a change to what the evaluation reads (in no test's import graph) reruns it.
          const triggers = await watchedInputs(vitest, provided).catch(() => [])
          // Patterns are matched against absolute paths: a file, or anything under a folder.
          vitest.config.forceRerunTriggers.push(...triggers.flatMap((path) => [path, `${path}/**`]))
        },
      },
    ],
    test: {
      name,
      // The cases live in the package (src/vitest/cases/ or dist/vitest/cases/), not in the user's tree.
      dir: `${HERE}/cases`,
      include: [`*.eval.${EXT}`],
      exclude: [],
      globalSetup: [`${HERE}/global-setup.${EXT}`],
      provide: { ragEvalOptions: provided },
    },
  }
}

/** The config file, corpus, golden set, baseline and the system's folder: what a watch-mode rerun depends on. */
async function watchedInputs(vitest: Vitest, provided: RagEvalProjectOptions): Promise<string[]> {
  // Through Vitest's module runner, as it loads a global setup: not a part of the config's bundle.
  const { loadProjectConfig } = await vitest.import<typeof import('../config/load-project-config.ts')>(
    `${HERE}/../config/load-project-config.${EXT}`,
  )
  const project = await loadProjectConfig({ configFile: provided.config, overrides: provided.inline })
  const system = typeof project.system === 'string' && project.system !== 'builtin' ? [dirname(project.system)] : []
  const http = typeof project.system === 'object' && 'http' in project.system && project.system.http.command ? [project.root] : []
  return [
    project.source,
    ...(project.corpus ? [project.corpus.dir] : []),
    project.goldenSet,
    project.baseline,
    ...system,
    ...http,
  ]
}

const MODES: readonly DeclaredMode[] = ['offline', 'replay', 'record', 'live']

/**
 * The run's mode as the evaluation will resolve it (the environment over ragEval()'s options over the
 * config file; MOCK=1 makes live a replay), read before anything of the evaluation loads: the config
 * file only when neither the environment nor the options say, through Vitest's module runner. 'unknown'
 * when it cannot be read here (the evaluation then says why, in a host that is safe for every mode).
 */
async function declaredMode(vitest: Vitest, provided: RagEvalProjectOptions): Promise<DeclaredMode> {
  const fromFile = async (): Promise<unknown> => {
    const file = findConfigFile({ configFile: provided.config, cwd: process.cwd(), env: process.env })
    if (file === null) return undefined
    const exported = await vitest.import<{ default?: { mode?: unknown } }>(file)
    return (exported.default ?? (exported as { mode?: unknown })).mode ?? 'offline'
  }
  try {
    const mode = process.env.EVAL_MODE || (provided.inline?.mode ?? (await fromFile()))
    const resolved = process.env.MOCK === '1' && mode === 'live' ? 'replay' : mode
    return MODES.find((known) => known === resolved) ?? 'unknown'
  } catch {
    return 'unknown'
  }
}
