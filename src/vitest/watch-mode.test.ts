import { spawn, type ChildProcess } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Report } from '../contract/report-schema.ts'
import { baselineFromReport, writeBaseline } from '../gate/baseline-files.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

const temp = useTempDirs()
const REPOSITORY = resolve(import.meta.dirname, '..', '..')

/** The in-process system: every document one chunk, in corpus order, packed within the run's budget. */
const system = (name: string) => `export default ({ corpus, config }) => ({
  name: ${JSON.stringify(name)},
  async answer() {
    const ranked = corpus.map((doc, i) => ({ chunkId: doc.id + '#0', docId: doc.id, score: 1 / (i + 1), text: doc.body, tokens: Math.ceil(doc.body.length / 4) }))
    const context = []
    let used = 0
    for (const chunk of ranked) {
      if (used + chunk.tokens > config.budgetTokens) break
      context.push(chunk)
      used += chunk.tokens
    }
    return { ranked, context }
  },
})
`

const config = (budgetTokens: number) =>
  `export default { corpus: 'corpus', goldenSet: 'golden.json', baseline: 'baseline', system: './system/rag.ts', budgetTokens: ${budgetTokens} }\n`

/** Appends the test files of each finished run (project:file) to runs.jsonl: what the test waits on. */
const RUNS_REPORTER = `import { appendFileSync } from 'node:fs'
import { basename } from 'node:path'
export default class {
  onTestRunEnd(modules) {
    appendFileSync('runs.jsonl', JSON.stringify(modules.map((m) => m.project.name + ':' + basename(m.moduleId))) + '\\n')
  }
}
`

/** A small project with an in-process system, a unit test beside the eval project, and this repository's ragEval(). */
function watchedProject(): string {
  const dir = temp.make('watch-mode-')
  symlinkSync(join(REPOSITORY, 'node_modules'), join(dir, 'node_modules'), 'dir')
  cpSync(join(REPOSITORY, 'fixtures/corpora/tiny'), join(dir, 'corpus'), { recursive: true })
  cpSync(join(REPOSITORY, 'fixtures/golden/valid.json'), join(dir, 'golden.json'))
  mkdirSync(join(dir, 'system'))
  writeFileSync(join(dir, 'system/rag.ts'), system('watched-v1'))
  writeFileSync(join(dir, 'rag-eval.config.ts'), config(600))
  writeFileSync(join(dir, 'unit.test.ts'), "import { expect, test } from 'vitest'\n\ntest('one', () => expect(1).toBe(1))\n")
  writeFileSync(join(dir, 'runs-reporter.mjs'), RUNS_REPORTER)
  writeFileSync(
    join(dir, 'vitest.config.ts'),
    `import { defineConfig } from 'vitest/config'
import { ragEval } from ${JSON.stringify(join(REPOSITORY, 'src/vitest/index.ts'))}

export default defineConfig({
  test: {
    reporters: ['default', './runs-reporter.mjs'],
    projects: [{ test: { name: 'unit', include: ['unit.test.ts'] } }, ragEval()],
  },
})
`,
  )
  return dir
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The runs Vitest has finished so far, each the list of its test files. */
function runs(dir: string): string[][] {
  const file = join(dir, 'runs.jsonl')
  if (!existsSync(file)) return []
  return readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as string[])
}

/**
 * Waits for the runs after run `after` until one's report shows the edit (an event, not a time budget: the
 * test's own limit is generous), and returns the test files of those runs (an editor's write may be seen
 * as two changes, hence two reruns). Three runs that miss it fail, as does Vitest exiting.
 */
async function rerunShowing(
  dir: string,
  after: number,
  shows: (report: Report) => boolean,
  vitest: ChildProcess,
  output: () => string,
): Promise<{ files: string[]; count: number }> {
  for (let count = after + 1; count <= after + 3; count++) {
    while (runs(dir).length < count) {
      if (vitest.exitCode !== null) throw new Error(`Vitest exited (${vitest.exitCode}) before run ${count}:\n${output()}`)
      await sleep(100)
    }
    if (shows(report(dir))) return { files: [...new Set(runs(dir).slice(after, count).flat())], count }
  }
  throw new Error(`three reruns after run ${after}, none showing the edit:\n${output()}`)
}

const report = (dir: string) => JSON.parse(readFileSync(join(dir, 'reports/latest.json'), 'utf8')) as Report

describe('watch mode re-evaluates on a change to what the evaluation reads, and reruns only the eval project', () => {
  it('config, corpus, golden set, baseline and the in-process system each rerun the evaluation with the edit in it', async () => {
    const dir = watchedProject()
    const tmp = temp.make('watch-mode-tmp-')
    const vitest = spawn(process.execPath, [join(REPOSITORY, 'node_modules/vitest/vitest.mjs'), '--watch'], {
      cwd: dir,
      // Its own temp folder (removed after the test), for what a Vitest stopped by a signal leaves.
      env: { ...process.env, TMPDIR: tmp, CI: '', GATE: '', EVAL_TIER: 'retrieval', EVAL_MODE: '', RAG_EVAL_CONFIG: '' },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let output = ''
    vitest.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    vitest.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
    if (process.env.WATCH_TEST_DEBUG) vitest.stdout.pipe(process.stderr)
    const evalOnly = ['eval:evaluation.eval.ts']
    try {
      const first = await rerunShowing(
        dir,
        0,
        () => true,
        vitest,
        () => output,
      )
      expect(first.files.sort()).toEqual(['eval:evaluation.eval.ts', 'unit:unit.test.ts'])
      const initial = report(dir)
      // Every document (each under 600 tokens) is in the context: each answerable question's documents are.
      expect(initial.config.budgetTokens).toBe(600)
      expect(initial.summary.recall).toBe(1)
      expect(initial.config.system).toBe('watched-v1')
      expect(initial.gate?.baseline ?? null).toBeNull()
      let last = first.count
      const rerun = async (shows: (report: Report) => boolean) => {
        const next = await rerunShowing(dir, last, shows, vitest, () => output)
        last = next.count
        return next.files
      }

      // The config: a budget no document fits in leaves every context empty.
      writeFileSync(join(dir, 'rag-eval.config.ts'), config(5))
      expect(await rerun((r) => r.config.budgetTokens === 5)).toEqual(evalOnly)
      expect(report(dir).summary.recall).toBe(0)

      // A corpus file.
      const alpha = join(dir, 'corpus/alpha.md')
      writeFileSync(alpha, `${readFileSync(alpha, 'utf8')}\nTraces of deleted projects are removed at once.\n`)
      expect(await rerun((r) => r.inputs.corpusHash !== initial.inputs.corpusHash)).toEqual(evalOnly)
      expect(report(dir).config.budgetTokens).toBe(5)

      // The golden set: a fourth question.
      const golden = JSON.parse(readFileSync(join(dir, 'golden.json'), 'utf8')) as { questions: Record<string, unknown>[] }
      const added = {
        id: 'g-4',
        type: 'single',
        question: 'How often are snapshots taken?',
        answerDocIds: ['t-002'],
        goldAnswer: 'Every 6 hours.',
      }
      writeFileSync(join(dir, 'golden.json'), JSON.stringify({ questions: [...golden.questions, added] }))
      expect(await rerun((r) => r.questions.length === 4)).toEqual(evalOnly)
      expect(report(dir).questions.map((q) => q.id)).toEqual(['g-1', 'g-2', 'g-3', 'g-4'])

      // The baseline: this run accepted as it is, but for its recall.
      const accepted = baselineFromReport(report(dir))
      writeBaseline(join(dir, 'baseline'), {
        ...accepted,
        summary: { ...accepted.summary, metrics: { ...accepted.summary.metrics, recall: 0.25 } },
      })
      expect(await rerun((r) => r.gate?.baseline === 'baseline')).toEqual(evalOnly)
      expect(report(dir).gate?.metrics.find((metric) => metric.name === 'recall')?.baseline).toBe(0.25)

      // The in-process system's source.
      writeFileSync(join(dir, 'system/rag.ts'), system('watched-v2'))
      expect(await rerun((r) => r.config.system === 'watched-v2')).toEqual(evalOnly)
    } finally {
      vitest.kill('SIGTERM')
      if (vitest.exitCode === null) await new Promise((resolve) => vitest.once('exit', resolve))
    }
  }, 600_000)
})
