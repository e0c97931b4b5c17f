import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { CompareResultSchema } from '../compare/comparison-schema.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { ReportSchema, type Report } from '../contract/report-schema.ts'
import { ragEvalArgv } from '../testing/rag-eval-bin.ts'
import { ragEvalInProcess } from './testing/rag-eval-in-process.ts'

const temp = useTempDirs()

/** Runs `rag-eval compare` (pnpm eval:compare) in-process. */
const runCompare = (args: string[]) => ragEvalInProcess(['compare', ...args])

/** The same through the bin, as a user would. */
function spawnCompare(args: string[]) {
  const result = spawnSync(process.execPath, ragEvalArgv(['compare', ...args]), { encoding: 'utf8' })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'))

/** C(n, k) in exact integers. */
function binomial(n: number, k: number): bigint {
  let value = 1n
  for (let i = 1; i <= k; i++) value = (value * BigInt(n - i + 1)) / BigInt(i)
  return value
}

describe('rag-eval compare', () => {
  it("budget 600 against 450: recall's p-value is the exact McNemar of the two reports' per-question hits", () => {
    const out = temp.make('compare-')
    const result = spawnCompare([
      '--a',
      'rag-eval.config.ts',
      '--b',
      'rag-eval.config.ts',
      '--b-env',
      'EVAL_CONTEXT_BUDGET=450',
      '--out',
      out,
      '--tier',
      'retrieval',
    ])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const a = ReportSchema.parse(readJson(join(out, 'compare-a.json')))
    const b = ReportSchema.parse(readJson(join(out, 'compare-b.json')))
    expect([a.config.budgetTokens, b.config.budgetTokens]).toEqual([600, 450])

    // The discordant pairs, counted here from the two reports: hit -> miss and miss -> hit over answerable questions.
    const hitsB = new Map(b.questions.map((q) => [q.id, q.hit]))
    const answerable = a.questions.filter((q) => q.type !== 'none')
    const lost = answerable.filter((q) => q.hit && !hitsB.get(q.id)).length
    const gained = answerable.filter((q) => !q.hit && hitsB.get(q.id)).length
    expect(lost + gained).toBeGreaterThan(0)
    // Two-sided exact binomial: p = min(1, 2 · Σ_{k <= min(b, c)} C(n, k) / 2^n), in exact integers.
    const n = lost + gained
    let tail = 0n
    for (let k = 0; k <= Math.min(lost, gained); k++) tail += binomial(n, k)
    const numerator = 2n * tail
    const denominator = 2n ** BigInt(n)
    const exact = numerator >= denominator ? 1 : Number(numerator) / Number(denominator)

    const comparison = CompareResultSchema.parse(readJson(join(out, 'compare.json')))
    const recall = comparison.metrics.find((m) => m.name === 'recall')!
    expect(recall).toMatchObject({ test: 'mcnemar-exact', pairs: answerable.length, discordant: { worse: lost, better: gained } })
    expect(recall.pValue! / exact).toBeCloseTo(1, 12)
    // The printed recall row carries the same p-value (3 significant digits).
    const row = result.stdout.split('\n').find((line) => line.startsWith('recall (context) '))!
    expect(row.split(/\s{2,}/)[6]).toBe(String(Number(exact.toPrecision(3))))
    // Every lost question is named with its evidence.
    const flips = comparison.flips.find((f) => f.metric === 'recall')!
    expect(flips.worse.map((f) => f.id)).toEqual(answerable.filter((q) => q.hit && !hitsB.get(q.id)).map((q) => q.id))
    expect(readFileSync(join(out, 'compare.md'), 'utf8')).toContain(
      `- recall (context): ${lost} hit -> miss, ${gained} miss -> hit`,
    )
  })

  it("--b-env reaches an in-process system (it reads process.env while B runs), and A's run and this process keep theirs", async () => {
    const dir = temp.make('compare-env-')
    // The system ranks the document ANSWER_DOC names: t-002 (a miss for g-1, whose answer is t-001) unless B sets it.
    writeFileSync(
      join(dir, 'system.ts'),
      `export default { name: 'env-reader', async answer() {
        const docId = process.env.ANSWER_DOC ?? 't-002'
        const chunk = { chunkId: docId + '#0', docId, score: 1, tokens: 5, text: 'Traces are kept for 15 days.' }
        return { ranked: [chunk], context: [chunk] }
      } }\n`,
    )
    const paths = {
      corpus: resolve('fixtures/corpora/tiny'),
      goldenSet: resolve('fixtures/golden/valid.json'),
      system: join(dir, 'system.ts'),
    }
    writeFileSync(join(dir, 'rag-eval.config.ts'), `export default ${JSON.stringify(paths)}\n`)
    const config = join(dir, 'rag-eval.config.ts')
    const args = ['--a', config, '--b', config, '--b-env', 'ANSWER_DOC=t-001', '--out', dir, '--tier', 'retrieval']
    const result = await runCompare(args)
    expect(result.code, result.stderr).toBe(0)
    const hitOfG1 = (side: string) => ReportSchema.parse(readJson(join(dir, `compare-${side}.json`))).questions[0]!.hit
    expect([hitOfG1('a'), hitOfG1('b')]).toEqual([false, true])
    expect(process.env.ANSWER_DOC).toBeUndefined()
  })

  it('two reports of different golden sets: exit 2, naming the questions only one side has', async () => {
    const out = temp.make('compare-golden-')
    expect(
      (await runCompare(['--a', 'rag-eval.config.ts', '--b', 'rag-eval.config.ts', '--out', out, '--tier', 'retrieval'])).code,
    ).toBe(0)
    const a = ReportSchema.parse(readJson(join(out, 'compare-a.json')))
    const shrunk: Report = { ...a, questions: a.questions.filter((q) => q.id !== 'q-002' && q.id !== 'q-007') }
    writeFileSync(join(out, 'shrunk.json'), JSON.stringify(shrunk))
    const result = await runCompare(['--a', join(out, 'compare-a.json'), '--b', join(out, 'shrunk.json'), '--out', out])
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      `compare: A and B are not runs of the same golden set: 2 question(s) only in A (${join(out, 'compare-a.json')}, golden set evals/golden-set.json): q-002, q-007; compare two runs of one golden set\n`,
    )
  })

  it('--b-env on a report: a usage error (a report is already measured)', async () => {
    const result = await runCompare(['--a', 'rag-eval.config.ts', '--b', 'package.json', '--b-env', 'EVAL_TOP_K=5'])
    expect(result.code).toBe(2)
    expect(result.stderr.split('\n')[0]).toBe(
      'compare: --b-env: --b package.json is a report, already measured; environment overrides apply to a config file',
    )
  })
})
