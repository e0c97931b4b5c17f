import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../../config/load-project-config.ts'
import { runCharts } from '../../charts/run-charts.ts'
import { compareReports } from '../../compare/compare-reports.ts'
import { baselineFromReport } from '../../gate/baseline-from-report.ts'
import { evaluateGate } from '../../gate/gate.ts'
import { renderMarkdown } from '../../report/render-markdown.ts'
import { renderTerminalSummary } from '../../report/render-terminal.ts'
import { evaluate } from '../../run/evaluate.ts'
import { summarise } from '../../summary/summarise.ts'
import type { Report } from '../report-schema.ts'
import { binary, defineMetric } from './metric.ts'
import { METRICS } from './metric-table.ts'

/** A throwaway metric: the share of answerable questions answered rather than refused (1 - the false-refusal rate). */
const ANSWERED = defineMetric({
  name: 'answeredRate',
  label: 'answered (answerable)',
  scope: 'answerable',
  source: 'answer',
  value: (q) => binary(q.refused === undefined || q.refused === null ? null : !q.refused),
  aggregate: 'rate',
  gated: 'overall',
  byType: 'compare',
  pairedTest: 'mcnemar-exact',
  whenEmpty: 'no answerable question got a clear answer or refusal',
})
const TABLE = [...METRICS, ANSWERED]

describe('a metric added to a copy of the table', async () => {
  const project = await loadProjectConfig()
  const measured = await evaluate(project, { tier: 'full', env: {} })
  const statistics = { resamples: measured.config.bootstrapResamples, alpha: measured.config.alpha }
  const { judge, judgeErrors } = measured.summary
  const summary = summarise(measured.questions, judge, judgeErrors ?? 0, undefined, statistics, TABLE)
  const report: Report = { ...measured, summary }
  // Independently: the answerable questions with a clear verdict, and those of them answered.
  const clear = measured.questions.filter((q) => q.type !== 'none' && q.refused !== null)
  const expected = Math.round((clear.filter((q) => q.refused === false).length / clear.length) * 10_000) / 10_000
  const value = (summary as Record<string, unknown>).answeredRate

  it('is in the summary, with its Wilson interval, and leaves every other metric as the real table has it', () => {
    expect(clear.length).toBeGreaterThan(0)
    expect(value).toBe(expected)
    expect(summary.intervals.answeredRate?.method).toBe('wilson')
    const { answeredRate: _added, ...rest } = summary as Record<string, unknown>
    expect({ ...rest, intervals: { ...summary.intervals, answeredRate: undefined } }).toEqual({
      ...measured.summary,
      intervals: { ...measured.summary.intervals, answeredRate: undefined },
    })
  })

  it('is gated: kept in the baseline, held against itself, and a regression when the baseline was higher', () => {
    const baseline = baselineFromReport(report, TABLE)
    expect(baseline.summary.metrics.answeredRate).toBe(expected)
    const held = evaluateGate(report, baseline, 'baseline', 0.01, undefined, TABLE)
    expect(held.problems).toEqual([])
    expect(held.metrics.find((m) => m.name === 'answeredRate')).toMatchObject({ status: 'held', current: expected })
    const higher = { ...baseline, summary: { ...baseline.summary, metrics: { ...baseline.summary.metrics, answeredRate: 1 } } }
    const regressed = evaluateGate(report, higher, 'baseline', 0.01, undefined, TABLE)
    expect(regressed.passed).toBe(false)
    expect(regressed.regressions).toContainEqual({
      name: 'answeredRate',
      baseline: 1,
      current: expected,
      delta: Math.round((expected - 1) * 10_000) / 10_000,
    })
  })

  it('is in latest.md and the terminal summary, with the chart row of the gated metrics', () => {
    const gate = evaluateGate(report, baselineFromReport(report, TABLE), 'baseline', 0.01, undefined, TABLE)
    const gated = { ...report, gate }
    const row = new RegExp(`answered \\(answerable\\) +(\\| +)?${expected.toFixed(4)} \\[`)
    // In the generation table, and in the gate's table.
    const markdown = renderMarkdown(gated, TABLE)
    expect(markdown).toMatch(row)
    expect(markdown).toMatch(/\| answered \(answerable\) +\| +[0-9.]+ \| +[0-9.]+ \| \+0\.0000 \|.* held \|/)
    expect(renderMarkdown({ ...gated, gate: null })).not.toContain('answered (answerable)')
    expect(renderTerminalSummary(gated, TABLE)).toMatch(row)
    const chart = runCharts(gated, TABLE)
      .find((c) => c.file === 'metrics.svg')!
      .render()
    expect(chart).toContain('<g data-metric="answeredRate">')
  })

  it('is compared, overall and per answerable type, with its flips', () => {
    const sides = {
      a: { source: 'a.json', kind: 'report', env: {}, report: null },
      b: { source: 'b.json', kind: 'report', env: {}, report: null },
    } as const
    // B answers one more answerable question A refused: one flip the good way.
    const refusedByA = clear.find((q) => q.refused === true)!
    const b = { ...report, questions: report.questions.map((q) => (q.id === refusedByA.id ? { ...q, refused: false } : q)) }
    const result = compareReports(report, b, sides, { table: TABLE })
    expect(result.metrics.map((m) => m.name).filter((name) => name.startsWith('answeredRate'))).toEqual([
      'answeredRate',
      'answeredRate.single',
      'answeredRate.multi',
      'answeredRate.contradiction',
    ])
    expect(result.metrics.find((m) => m.name === 'answeredRate')).toMatchObject({ test: 'mcnemar-exact', pairs: clear.length })
    const flips = result.flips.find((f) => f.metric === 'answeredRate')!
    expect(flips.better.map((f) => f.id)).toEqual([refusedByA.id])
    expect(flips.worse).toEqual([])
  })
})

/** Production files of src/: every .ts file but the tests and the tests' helpers (testing/ folders). */
function productionFiles(): { path: string; text: string }[] {
  const src = join(import.meta.dirname, '../..')
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.split(/[\\/]/).includes('testing'))
    .map((file) => ({ path: relative(src, join(src, file)), text: readFileSync(join(src, file), 'utf8') }))
}

/**
 * Names that are also words of the domain, used beyond the metric (trec_eval's recall measure, the recall x
 * faithfulness diagnosis, the judge's prompts and its coverage of key facts): capped at their count when the table
 * came, a cap that only comes down.
 */
const DOMAIN_WORDS: Record<string, number> = { recall: 40, faithfulness: 38, coverage: 26 }

describe('the metric table keeps each metric in few files', () => {
  const files = productionFiles()
  const naming = (name: string) => files.filter((file) => new RegExp(`\\b${name}\\b`).test(file.text)).map((f) => f.path)

  it.each(METRICS.map((metric) => metric.name).filter((name) => !(name in DOMAIN_WORDS)))(
    '%s is named in at most 6 production files',
    (name) => {
      const found = naming(name)
      expect(found.length, found.join(', ')).toBeGreaterThan(0)
      expect(found.length, found.join(', ')).toBeLessThanOrEqual(6)
    },
  )

  it.each(Object.entries(DOMAIN_WORDS))('%s, a word of the domain, is named in at most %i production files', (name, cap) => {
    expect(METRICS.some((metric) => metric.name === name)).toBe(true)
    expect(naming(name).length).toBeLessThanOrEqual(cap)
  })
})
