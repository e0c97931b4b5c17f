import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { Report } from '../contract/report-schema.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { failingOn, HTTP_422 } from '../gate/testing/system-error-runs.ts'
import { serialiseReport } from '../report/write-report.ts'
import { reportOf } from '../run/assemble-report.ts'
import { measure } from '../run/evaluate.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { CompareResultSchema } from './comparison-schema.ts'
import { compareReports } from './compare-reports.ts'
import { renderComparison } from './render-comparison.ts'
import { ragEvalInProcess } from '../cli/testing/rag-eval-in-process.ts'

const temp = useTempDirs()
const project = await loadProjectConfig()
let a: Report
let b: Report
/** The questions B's system failed on: ten that A hit. */
let errored: string[]
let answerable: number

beforeAll(async () => {
  const good = await measure(project, { tier: 'retrieval', env: {} })
  errored = good.questions
    .filter((q) => q.type !== 'none' && q.hit)
    .slice(0, 10)
    .map((q) => q.id)
  answerable = good.questions.filter((q) => q.type !== 'none').length
  a = reportOf(project, good, null)
  b = reportOf(project, failingOn(good, errored), null)
})

const sides = {
  a: { source: 'a.json', kind: 'report', env: {}, report: null },
  b: { source: 'b.json', kind: 'report', env: {}, report: null },
} as const

describe('compare when B’s system failed on 10 questions A hit', () => {
  it('lists each side’s errors and keeps those questions out of the paired tests and the flips', () => {
    const result = compareReports(a, b, sides)
    expect(result.systemErrors).toEqual({ a: [], b: errored.map((id) => ({ id, error: HTTP_422 })), leftOut: 10 })
    const recall = result.metrics.find((m) => m.name === 'recall')!
    // Same system otherwise: every measured pair agrees, nothing flipped (before: 10 "hit -> miss").
    expect(recall).toMatchObject({
      pairs: answerable - 10,
      delta: 0,
      discordant: { worse: 0, better: 0 },
      verdict: 'no-difference',
    })
    expect(result.flips.every((f) => f.worse.length === 0 && f.better.length === 0)).toBe(true)
    const text = renderComparison(result, 'text')
    expect(text).toContain(
      [
        'system errors (not misses): 10 question(s) errored in A or B, left out of every paired test and of the flips (A 0, B 10)',
        'A: 0 system error(s)',
        'B: 10 system error(s):',
        ...errored.map((id) => `  ${id}: ${HTTP_422}`),
      ].join('\n'),
    )
    expect(text).toContain('No question flipped a yes/no outcome.')
    expect(text).not.toContain('hit -> miss')
    expect(renderComparison(result, 'markdown')).toContain(
      [
        'system errors (not misses): 10 question(s) errored in A or B, left out of every paired test and of the flips (A 0, B 10)',
        '- A: 0 system error(s)',
        '- B: 10 system error(s):',
        ...errored.map((id) => `  - ${id}: ${HTTP_422}`),
      ].join('\n'),
    )
  })

  it('two runs without errors: no systemErrors field (compare.json as before)', () => {
    expect('systemErrors' in compareReports(a, a, sides)).toBe(false)
  })

  it('rag-eval compare prints them and writes them to compare.json and compare.md', async () => {
    const dir = temp.make('compare-errors-')
    writeFileAtomic(join(dir, 'a.json'), serialiseReport(a))
    writeFileAtomic(join(dir, 'b.json'), serialiseReport(b))
    const run = await ragEvalInProcess(['compare', '--a', join(dir, 'a.json'), '--b', join(dir, 'b.json'), '--out', dir])
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    const line = `system errors (not misses): 10 question(s) errored in A or B, left out of every paired test and of the flips (A 0, B 10)`
    expect(run.stdout).toContain(line)
    expect(readFileSync(join(dir, 'compare.md'), 'utf8')).toContain(line)
    const json = CompareResultSchema.parse(JSON.parse(readFileSync(join(dir, 'compare.json'), 'utf8')))
    expect(json.systemErrors).toEqual({ a: [], b: errored.map((id) => ({ id, error: HTTP_422 })), leftOut: 10 })
    expect(json.metrics.find((m) => m.name === 'recall')?.pairs).toBe(answerable - 10)
  })
})
