import { existsSync, watch } from 'node:fs'
import { dirname, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { TestProjectInlineConfiguration } from 'vitest/config'
import type { TestProject, Vitest } from 'vitest/node'
import type { RagEvalConfig } from '../config/project-config.ts'
import type { Shard } from '../run/shard-assignment.ts'
import { findConfigFile } from '../config/config-file.ts'
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
        `ragEval({ ${key} }): the evaluation runs in a child process, so an object with methods cannot be passed inline; put it in rag-eval.config.ts (system: './src/rag.ts' or an object there)`,
      )
    }
  }
  return JSON.parse(JSON.stringify(inline)) as Record<string, unknown>
}

/**
 * The evaluation's Vitest project: a case per golden question and per gated metric, the matchers, the global
 * setup that evaluates once per run, and the reporter.
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
        // A project cannot list root reporters or watch triggers, but its plugin may; Vitest awaits this hook.
        // eslint-disable-next-line @typescript-eslint/no-misused-promises
        async configureVitest({ vitest, project }) {
          if (project.name !== name) return
          // By path, so loading vitest.config.ts (bundled with its imports for every project) stays light.
          const reporters = vitest.config.reporters as unknown as [string, unknown][]
          reporters.push([`${HERE}/eval-reporter.${EXT}`, name])
          // --shard=i/n: this shard's question cases, in a case file of its own (shard-cases.ts).
          if (vitest.config.shard) useShardCaseFile(vitest, project, vitest.config.shard, `${HERE}/cases`, EXT)
          // --merge-reports evaluates nothing (the reporter merges the shards' measurements).
          if (vitest.config.mergeReports || !vitest.config.watch) return
          // Watch mode: a change to what the evaluation reads (in no test's import graph) reruns it, and only it.
          rerunOnChangesTo(vitest, project, await watchedInputs(vitest, provided).catch(() => []))
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

/** What a watch-mode rerun depends on; the built-in system's source changes only in this repository. */
async function watchedInputs(vitest: Vitest, provided: RagEvalProjectOptions): Promise<string[]> {
  // Through Vitest's module runner: the evaluation loads the config in its own process.
  const file = findConfigFile({ configFile: provided.config, cwd: process.cwd(), env: process.env })
  const exported = file === null ? {} : await vitest.import<{ default?: unknown }>(file)
  const fromFile = exported.default ?? exported
  const values = typeof fromFile === 'object' && fromFile !== null ? { ...fromFile, ...provided.inline } : fromFile
  const { resolveProjectConfig } = await vitest.import<typeof import('../config/project-config.ts')>(
    `${HERE}/../config/project-config.${EXT}`,
  )
  const project = resolveProjectConfig(values, {
    root: file === null ? process.cwd() : dirname(file),
    source: file ?? 'ragEval() options',
    env: process.env,
  })
  const system =
    typeof project.system === 'string' && project.system !== 'builtin'
      ? [dirname(project.system)]
      : project.system === 'builtin' && EXT === 'ts'
        ? [dirname(HERE)]
        : []
  const http = typeof project.system === 'object' && 'http' in project.system && project.system.http.command ? [project.root] : []
  return [
    ...(file === null ? [] : [file]),
    ...(project.corpus ? [project.corpus.dir] : []),
    project.goldenSet,
    project.attackSet,
    project.baseline,
    ...system,
    ...http,
  ]
}

/**
 * Reruns the eval project's cases, and so the evaluation, when an input changes: the watcher sees it as a case
 * file change, so Vitest debounces it with anything else and reruns no other project.
 */
function rerunOnChangesTo(vitest: Vitest, project: TestProject, inputs: readonly string[]): void {
  if (inputs.length === 0) return
  const watcher = vitest.vite.watcher
  watcher.add(inputs.filter((input) => existsSync(input)))
  const isInput = (file: string) =>
    !file.endsWith('.test.ts') && inputs.some((input) => file === input || file.startsWith(`${input}${sep}`))
  const changed = (file: string) => {
    if (!isInput(resolve(file))) return
    void project.globTestFiles().then(({ testFiles }) => {
      for (const caseFile of testFiles) vitest.watcher.onFileChange(caseFile)
    })
  }
  for (const event of ['change', 'add', 'unlink'] as const) watcher.on(event, changed)
  // Vite's watcher reports nothing inside a folder made after it started (the baseline before the first
  // `vitest -u`): such an input is awaited in its parent, then watched, and its creation is a change.
  for (const input of inputs.filter((path) => !existsSync(path) && existsSync(dirname(path)))) {
    const parent = watch(dirname(input), () => {
      if (!existsSync(input)) return
      parent.close()
      watcher.add(input)
      changed(input)
    })
    vitest.onClose(() => parent.close())
  }
}
