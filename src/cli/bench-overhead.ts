import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { TreeMemory } from '../bench/process-tree-memory.ts'
import { timeVitest } from '../bench/time-vitest.ts'
import { percentile } from '../statistics/descriptive.ts'
import { formatTable } from '../support/format-table.ts'
import { integer, positiveNumber } from './arg-kinds.ts'
import { option } from './args.ts'
import { defineCommand } from './command.ts'

interface Run {
  wallMs: number
  memory: TreeMemory | null
  code: number | null
  /** The evaluation's own duration (report run.durationMs), for the eval project's runs. */
  evaluateMs: number | null
}

/** `vitest <args>` in `cwd`, timed, with the evaluation's own duration from the report in `reportsDir` (if any). */
async function timeRun(cwd: string, args: readonly string[], reportsDir: string | null): Promise<Run> {
  const { wallMs, memory, code } = await timeVitest(args, { cwd })
  let evaluateMs: number | null = null
  if (reportsDir !== null) {
    try {
      evaluateMs = (JSON.parse(readFileSync(join(reportsDir, 'latest.json'), 'utf8')) as { run: { durationMs: number } }).run.durationMs
    } catch {
      evaluateMs = null
    }
  }
  return { wallMs, memory, code, evaluateMs }
}

const median = (values: readonly number[]) => percentile(values, 50) ?? 0
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`

export const command = defineCommand({
  usage: 'usage: rag-eval bench overhead [--runs 5] [--target 2]',
  description: `  The evaluation's overhead over Vitest itself (pnpm bench:overhead), on this repository: a bare
  \`vitest run\` of one trivial test (its own folder under .cache/, no config of ours) beside
  \`vitest run --project eval\` (this repository's golden set, offline), each run --runs times in turn;
  prints the medians of wall time and peak memory (largest process, Linux), the evaluation's own time
  inside the eval run (its report's run.durationMs), and the ratio eval / bare against --target.
  Run it from the repository's root.`,
  options: {
    runs: option(integer({ min: 1 }), { default: '5' }),
    target: option(positiveNumber, { default: '2' }),
  },
  run: async ({ values }) => {
    const root = process.cwd()
    const bareDir = join(root, '.cache', 'bench-overhead')
    mkdirSync(bareDir, { recursive: true })
    writeFileSync(join(bareDir, 'trivial.test.mjs'), "import { expect, test } from 'vitest'\n\ntest('one trivial test', () => expect(1 + 1).toBe(2))\n")
    writeFileSync(join(bareDir, 'vitest.config.mjs'), "export default { test: { include: ['trivial.test.mjs'] } }\n")
    try {
      const bare: Run[] = []
      const evalRuns: Run[] = []
      // Interleaved, so a change in the machine's load weighs on both alike.
      for (let i = 0; i < values.runs; i++) {
        bare.push(await timeRun(bareDir, ['run'], null))
        evalRuns.push(await timeRun(root, ['run', '--project', 'eval'], join(root, 'reports')))
        console.log(`  run ${i + 1}/${values.runs}: bare ${s(bare[i]!.wallMs)}, eval ${s(evalRuns[i]!.wallMs)}`)
      }
      const failed = [...bare, ...evalRuns].filter((r) => r.code !== 0).length
      const row = (label: string, runs: readonly Run[]) => [
        label,
        s(median(runs.map((r) => r.wallMs))),
        runs.every((r) => r.memory) ? `${median(runs.map((r) => r.memory!.peakProcessMb)).toFixed(0)} MB` : 'n/a',
        runs.every((r) => r.evaluateMs !== null) ? s(median(runs.map((r) => r.evaluateMs!))) : '',
      ]
      console.log(`\n${formatTable([['median of ' + values.runs, 'wall', 'peak RSS (largest process)', 'evaluate() inside'], row('bare `vitest run`, one trivial test', bare), row('`vitest run --project eval`', evalRuns)], 'text')}`)
      const ratio = median(evalRuns.map((r) => r.wallMs)) / median(bare.map((r) => r.wallMs))
      console.log(`\n${ratio <= values.target ? 'PASS' : 'MISS'}  eval / bare = ${ratio.toFixed(2)}x (target ${values.target.toFixed(1)}x)${failed > 0 ? `; ${failed} run(s) exited non-zero` : ''}`)
      return failed > 0 ? 1 : 0
    } finally {
      rmSync(bareDir, { recursive: true, force: true })
    }
  },
})
