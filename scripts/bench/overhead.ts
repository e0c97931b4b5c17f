import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { packTarball } from './packed-tarball.ts'
import type { TreeMemory } from './process-tree-memory.ts'
import { timeVitest } from './time-vitest.ts'
import { emptyProject, tempProject, type TempProject } from '../../src/testing/user-project.ts'
import { percentile } from '../../src/statistics/descriptive.ts'
import { formatTable } from '../../src/common/format-table.ts'
import { integer, positiveNumber } from '../../src/cli/arg-kinds.ts'
import { option } from '../../src/cli/args.ts'
import { defineCommand } from '../../src/cli/command.ts'
import { runBench } from './run-bench.ts'

interface Run {
  wallMs: number
  memory: TreeMemory | null
  code: number | null
  /** The evaluation's own duration (report run.durationMs), for the eval project's runs. */
  evaluateMs: number | null
}

/**
 * `vitest <args>` in `cwd` (with that project's Vitest when `bin` is given), timed, with the evaluation's own duration from the
 * report in `reportsDir` (if any).
 */
async function timeRun(cwd: string, args: readonly string[], reportsDir: string | null, bin?: string): Promise<Run> {
  const { wallMs, memory, code } = await timeVitest(args, { cwd, ...(bin ? { bin } : {}) })
  let evaluateMs: number | null = null
  if (reportsDir !== null) {
    try {
      evaluateMs = (JSON.parse(readFileSync(join(reportsDir, 'latest.json'), 'utf8')) as { run: { durationMs: number } }).run
        .durationMs
    } catch {
      evaluateMs = null
    }
  }
  return { wallMs, memory, code, evaluateMs }
}

/** This repository's config file names defineConfig's module by a relative path; a user's names the package. */
const CONFIG_IMPORT = /from '\.\/src\/config\/define-config\.ts'/

/**
 * A user's project with the packed package installed (pnpm, from the local store), holding this
 * repository's corpus, golden set, labels, prices and baseline, its rag-eval.config.ts (importing
 * defineConfig from the package) and a vitest.config.ts of one ragEval() project: the same evaluation as
 * the user runs it, through compiled JavaScript in node_modules.
 */
async function installedProject(root: string): Promise<{ project: TempProject; removeTarball: () => void }> {
  const { tarball, remove } = packTarball()
  try {
    const project = await tempProject(tarball)
    try {
      for (const path of ['corpus', 'evals', 'baseline']) cpSync(join(root, path), join(project.dir, path), { recursive: true })
      const config = readFileSync(join(root, 'rag-eval.config.ts'), 'utf8')
      if (!CONFIG_IMPORT.test(config))
        throw new Error(
          `rag-eval.config.ts: expected \`import { defineConfig } from '../../src/cli/src/config/define-config.ts'\` to point at the package instead`,
        )
      writeFileSync(join(project.dir, 'rag-eval.config.ts'), config.replace(CONFIG_IMPORT, "from 'rag-vitest-eval/config'"))
      writeFileSync(
        join(project.dir, 'vitest.config.ts'),
        "import { defineConfig } from 'vitest/config'\nimport { ragEval } from " +
          "'rag-vitest-eval/vitest'\n\nexport default defineConfig({ test: { projects: [ragEval()] } })\n",
      )
      return { project, removeTarball: remove }
    } catch (error) {
      project.remove()
      throw error
    }
  } catch (error) {
    remove()
    throw error
  }
}

/** evalite's 100 trivial cases, the comparison the issue makes: an eval whose task returns its input, scored by exact match. */
const EVALITE_CASES = `import { evalite } from 'evalite'

evalite('trivial', {
  data: async () => Array.from({ length: 100 }, (_, i) => ({ input: \`q\${i}\`, expected: \`q\${i}\` })),
  task: async (input) => input,
  scorers: [{ name: 'exact', scorer: ({ output, expected }) => (output === expected ? 1 : 0) }],
})
`

/**
 * A fresh project with evalite 0.19 and the same Vitest, installed with npm from the registry (evalite
 * stores runs with better-sqlite3, a native module that npm's bundled node-gyp builds; pnpm's build does
 * not here), or why it could not be.
 */
async function evaliteProject(): Promise<TempProject | string> {
  const project = emptyProject('rag-eval-evalite-', 'evalite-bench')
  writeFileSync(join(project.dir, 'trivial.eval.ts'), EVALITE_CASES)
  const installed = await project.run('npm', ['install', '--no-audit', '--no-fund', 'evalite@0.19.0', 'vitest@4.1.12'])
  if (installed.code === 0) return project
  project.remove()
  return `npm install exited with ${installed.code}: ${installed.output.trim().split('\n').slice(-3).join(' ')}`
}

const median = (values: readonly number[]) => percentile(values, 50) ?? 0
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`

const command = defineCommand({
  usage: 'usage: pnpm bench:overhead [--runs 5] [--target 1.8]',
  description: `  The evaluation's overhead over Vitest itself, on this repository: a bare
  \`vitest run\` of one trivial test (its own folder under .cache/, no config of ours) beside
  \`vitest run --project eval\` (this repository's golden set, offline) twice: here, from the sources (which
  Vite transforms), and in a fresh project with the packed package installed (compiled JavaScript, as a
  user runs it; RAG_EVAL_TARBALL names a ready tarball); and \`evalite run\` of 100 trivial cases (evalite
  0.19 installed from the npm registry into a fresh project; left out, saying why, when it cannot be).
  Each is run --runs times, in turn; prints the medians of wall time and peak memory (largest process,
  Linux), the evaluation's own time inside the eval runs (their report's run.durationMs), and each ratio
  to the bare run against --target (the verdict is this repository's). Run it from the repository's root.`,
  options: {
    runs: option(integer({ min: 1 }), { default: '5' }),
    target: option(positiveNumber, { default: '1.8' }),
  },
  run: async ({ values }) => {
    const root = process.cwd()
    const bareDir = join(root, '.cache', 'bench-overhead')
    mkdirSync(bareDir, { recursive: true })
    writeFileSync(
      join(bareDir, 'trivial.test.mjs'),
      "import { expect, test } from 'vitest'\n\ntest('one trivial test', () => expect(1 + 1).toBe(2))\n",
    )
    writeFileSync(join(bareDir, 'vitest.config.mjs'), "export default { test: { include: ['trivial.test.mjs'] } }\n")
    console.log('packing the package and installing it into a fresh project; installing evalite 0.19 into another ...')
    const { project: installed, removeTarball } = await installedProject(root)
    const evalite = await evaliteProject()
    try {
      const bare: Run[] = []
      const here: Run[] = []
      const user: Run[] = []
      const other: Run[] = []
      // Interleaved, so a change in the machine's load weighs on all alike.
      for (let i = 0; i < values.runs; i++) {
        bare.push(await timeRun(bareDir, ['run'], null))
        here.push(await timeRun(root, ['run', '--project', 'eval'], join(root, 'reports')))
        user.push(
          await timeRun(
            installed.dir,
            ['run', '--project', 'eval'],
            join(installed.dir, 'reports'),
            join(installed.dir, 'node_modules', 'vitest', 'vitest.mjs'),
          ),
        )
        if (typeof evalite !== 'string')
          other.push(await timeRun(evalite.dir, ['run'], null, join(evalite.dir, 'node_modules', 'evalite', 'dist', 'bin.js')))
        console.log(
          `  run ${i + 1}/${values.runs}: bare ${s(bare[i]!.wallMs)}, eval here ${s(here[i]!.wallMs)}, ` +
            `eval installed ${s(user[i]!.wallMs)}${other[i] ? `, evalite ${s(other[i]!.wallMs)}` : ''}`,
        )
      }
      const failed = [...bare, ...here, ...user, ...other].filter((r) => r.code !== 0).length
      const bareMs = median(bare.map((r) => r.wallMs))
      const ratio = (runs: readonly Run[]) => median(runs.map((r) => r.wallMs)) / bareMs
      const row = (label: string, runs: readonly Run[]) => [
        label,
        s(median(runs.map((r) => r.wallMs))),
        runs.every((r) => r.memory) ? `${median(runs.map((r) => r.memory!.peakProcessMb)).toFixed(0)} MB` : 'n/a',
        runs.every((r) => r.evaluateMs !== null) ? s(median(runs.map((r) => r.evaluateMs!))) : '',
        runs === bare ? '' : `${ratio(runs).toFixed(2)}x`,
      ]
      const header = [`median of ${values.runs}`, 'wall', 'peak RSS (largest process)', 'evaluate() inside', 'eval / bare']
      const evaliteRow = typeof evalite === 'string' ? [] : [row('evalite 0.19 `evalite run`, 100 trivial cases', other)]
      console.log(
        `\n${formatTable([header, row('bare `vitest run`, one trivial test', bare), row('`vitest run --project eval`, this repository', here), row('the same, the package installed in a project', user), ...evaliteRow], 'text')}`,
      )
      if (typeof evalite === 'string') console.log(`\nevalite left out: it could not be installed (${evalite})`)
      console.log(
        `\n${ratio(here) <= values.target ? 'PASS' : 'MISS'}  eval / bare = ${ratio(here).toFixed(2)}x ` +
          `(target ${values.target.toFixed(1)}x)${failed > 0 ? `; ${failed} run(s) exited non-zero` : ''}`,
      )
      if (other.length > 0) {
        const [ours, theirs] = [median(here.map((r) => r.wallMs)), median(other.map((r) => r.wallMs))]
        console.log(
          `${ours < theirs ? 'faster' : 'slower'} than evalite's 100 trivial cases: ${s(ours)} ` +
            `against ${s(theirs)} (the installed package: ${s(median(user.map((r) => r.wallMs)))})`,
        )
      }
      return failed > 0 ? 1 : 0
    } finally {
      installed.remove()
      if (typeof evalite !== 'string') evalite.remove()
      removeTarball()
      rmSync(bareDir, { recursive: true, force: true })
    }
  },
})

await runBench('overhead', command)
