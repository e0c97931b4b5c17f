import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { gunzipSync } from 'node:zlib'
import { CompareResultSchema } from '../compare/comparison-schema.ts'
import type { Report } from '../contract/report-schema.ts'
import { comparisonCharts } from '../charts/run-charts.ts'
import { deltaChart } from '../charts/comparison-charts.ts'
import { evidenceImage } from '../charts/evidence-image.ts'
import { metricIntervalsChart, metricRows } from '../charts/metric-intervals-chart.ts'
import { describeEvidence } from './matchers/evidence.ts'
import { EVAL_PROJECT_RUN, evalProjectEnv } from '../testing/eval-project-run.ts'

// One run of the eval project as a user runs it, read by both tests below: EVAL_COMPARE against the repository's
// project with a 120-token context budget, EVAL_HTML=1 (Vitest's html reporter) and EVAL_STRICT=1 (every miss fails).
const repo = (path: string) => JSON.stringify(resolve(path))
let dir = ''
let bConfig = ''
let reports = ''
let run: { code: number | null; out: string }

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'compare-html-'))
  bConfig = join(dir, 'b.config.ts')
  // The repository's project with a context budget of 120 tokens: the ranking is the same, the context much smaller.
  writeFileSync(
    bConfig,
    `export default { corpus: ${repo('corpus')}, goldenSet: ${repo('evals/golden-set.json')}, humanLabels: ${repo('evals/human-labels.json')}, budgetTokens: 120 }\n`,
  )
  reports = join(dir, 'reports')
  run = await new Promise((done, fail) => {
    const child = spawn(process.execPath, EVAL_PROJECT_RUN, {
      env: evalProjectEnv({ EVAL_REPORTS_DIR: reports, EVAL_COMPARE: bConfig, EVAL_HTML: '1', EVAL_STRICT: '1' }),
    })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.on('error', fail)
    child.on('close', (code) => done({ code, out }))
  })
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The html reporter's data: Vitest's files, tasks and annotations, strings stored once each (flatted), JSON-escaped. */
const htmlMeta = () => gunzipSync(readFileSync(join(reports, 'html', 'html.meta.json.gz'))).toString('utf8')

describe("EVAL_COMPARE=<config>: a case per metric against that config's run", () => {
  it('fails the metrics B is significantly worse on (a 120-token context budget: recall), passes the rest, and writes compare.json', () => {
    const { code, out } = run
    // B worse on recall fails its case (and, under EVAL_STRICT, so does every miss of A).
    expect(code, out).toBe(1)
    const comparison = CompareResultSchema.parse(JSON.parse(readFileSync(join(reports, 'compare.json'), 'utf8')))
    expect(comparison.configDifferences).toEqual(['budgetTokens: A 600, B 120'])
    const overall = comparison.metrics.filter((m) => !m.name.includes('.') && m.pairs > 0)
    const caseName = (name: string) => `${name}: B (${bConfig}) is not significantly worse than A`
    // The failed cases are exactly the metrics compare.json calls significantly worse; recall is one, MRR (same ranking) is not.
    const worse = overall.filter((m) => m.verdict === 'worse').map((m) => m.name)
    expect(worse).toContain('recall')
    expect(worse).not.toContain('mrr')
    for (const m of overall) expect(out).toContain(`${m.verdict === 'worse' ? '×' : '✓'} ${caseName(m.name)}`)
    const recall = comparison.metrics.find((m) => m.name === 'recall')!
    // Only hit -> miss flips with a smaller context: McNemar's p is 2 · (1/2)^b with b lost questions and none gained.
    expect(recall.discordant!.better).toBe(0)
    expect(recall.pValue! / (2 * 0.5 ** recall.discordant!.worse)).toBeCloseTo(1, 12)
    expect(out).toContain('A/B comparison (EVAL_COMPARE, ')

    // The comparison's charts: written beside compare.md, which links them, and attached to the cases (the html report's data).
    const meta = htmlMeta()
    const markdown = readFileSync(join(reports, 'compare.md'), 'utf8')
    for (const chart of comparisonCharts(comparison)) {
      expect(markdown).toContain(`](charts/${chart.file})`)
      expect(readFileSync(join(reports, 'charts', chart.file), 'utf8')).toBe(chart.render())
      expect(meta).toContain(JSON.stringify(chart.render()))
    }
    // Recall's case: its rows (overall and per type) as a chart of their own.
    const recallRows = comparison.metrics.filter((m) => m.name === 'recall' || m.name.startsWith('recall.'))
    expect(meta).toContain(JSON.stringify(deltaChart(recallRows, `${recall.label}: B - A with its 95% interval`)))
  })
})

describe('EVAL_HTML=1: a static Vitest UI of the run (the CI artifact)', () => {
  it('holds every case with its annotations: a failing question’s note and evidence image, and the run’s charts', () => {
    // Strict: every miss fails (q-014, a known miss, among them), so the run fails, and the report is written all the same.
    expect(run.code, run.out).toBe(1)
    expect(run.out).toMatch(/FAIL .*> \w+ questions > q-014 \[/)
    expect(readFileSync(join(reports, 'html', 'index.html'), 'utf8')).toContain('<div id="app"')
    const meta = htmlMeta()
    const holds = (text: string) => meta.includes(JSON.stringify(text))

    const report = JSON.parse(readFileSync(join(reports, 'latest.json'), 'utf8')) as Report
    const q014 = report.questions.find((q) => q.id === 'q-014')!
    const evidence = describeEvidence(q014)
    expect(holds(`${q014.id} [${q014.type}] ${q014.question}`)).toBe(true)
    expect(holds(`known miss: the baseline missed this question too (EVAL_STRICT=1 fails every miss)\n\n${evidence}`)).toBe(true)
    expect(holds(evidenceImage(evidence, 'q-014: evidence'))).toBe(true)
    expect(holds('image/svg+xml')).toBe(true)
    // The charts the run wrote under reports/charts/, attached as they are.
    for (const file of ['metrics.svg', 'diagnosis.svg', 'latency.svg']) {
      expect(existsSync(join(reports, 'charts', file))).toBe(true)
      expect(holds(readFileSync(join(reports, 'charts', file), 'utf8'))).toBe(true)
    }
    // Each gated metric's case: its own rows (recall: overall and per type) against the baseline.
    const recallRows = metricRows(report).filter((row) => row.name === 'recall' || row.name.startsWith('recall.'))
    expect(recallRows.map((row) => row.name)).toEqual(['recall', 'recall.single', 'recall.multi', 'recall.contradiction'])
    expect(holds(metricIntervalsChart(recallRows, 'recall (context): this run vs the baseline'))).toBe(true)
  })
})
