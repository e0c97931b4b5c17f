import { readdirSync, readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
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

/** Production files of src/: every .ts file but the tests and the tests' helpers (testing/ folders), by their path under src/. */
function productionFiles(): { path: string; text: string }[] {
  const src = join(import.meta.dirname, '../..')
  return readdirSync(src, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.split(/[\\/]/).includes('testing'))
    .map((file) => ({ path: relative(src, join(src, file)).split(sep).join('/'), text: readFileSync(join(src, file), 'utf8') }))
}

/** A file's code: its comments stripped (a `//` inside a string or a URL is kept), which may say what they like. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')

const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

/**
 * Files where a metric's name is a word of another concept, by the path under src/ they start with, and why. Not the
 * metric, so not counted; an entry whose files no longer use the word fails, so the list only shrinks.
 */
const ANOTHER_CONCEPT: Record<string, Record<string, string>> = {
  recall: {
    'trec/':
      "trec_eval's recall measure (recall.<k>: the share of relevant documents in the top k), spelt as trec_eval spells it",
    'cli/trec.ts': "trec_eval's recall measure, named in the help of `rag-eval trec`",
  },
  coverage: {
    'cli/golden-draft.ts': "the drafts' coverage of the corpus: how many documents answer at least one draft",
  },
}

describe('the metric table keeps each metric in few files', () => {
  const files = productionFiles().map((file) => ({ ...file, code: code(file.text) }))
  /**
   * The files whose code names a metric: its name as a word, once the other metrics' names and labels (and a name's
   * kebab-case file name) are taken out: "ID-based context recall" and `recall-at-k.ts` name other metrics, not recall.
   */
  const naming = (metric: (typeof METRICS)[number]) => {
    const others = METRICS.filter((m) => m !== metric)
      .flatMap((m) => [m.label, m.name, kebab(m.name)])
      .filter((word) => new RegExp(`\\b${metric.name}\\b`).test(word))
    const otherWords = others.length === 0 ? null : new RegExp(others.map(escaped).join('|'), 'gi')
    const word = new RegExp(`\\b${metric.name}\\b`)
    return files
      .filter((file) => word.test(otherWords === null ? file.code : file.code.replace(otherWords, '')))
      .map((f) => f.path)
  }

  it.each(METRICS.map((metric) => [metric.name, metric] as const))(
    '%s is named in the code of at most 6 production files (comments stripped)',
    (name, metric) => {
      const concepts = Object.keys(ANOTHER_CONCEPT[name] ?? {})
      const found = naming(metric)
      const counted = found.filter((path) => !concepts.some((prefix) => path.startsWith(prefix)))
      expect(counted.length, counted.join(', ')).toBeGreaterThan(0)
      expect(counted.length, counted.join(', ')).toBeLessThanOrEqual(6)
      for (const prefix of concepts)
        expect(
          found.some((path) => path.startsWith(prefix)),
          prefix,
        ).toBe(true)
    },
  )
})
