import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import type { Report } from '../contract/report-schema.ts'
import { evidenceImage } from '../charts/evidence-image.ts'
import { metricIntervalsChart, metricRows } from '../charts/metric-intervals-chart.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { describeEvidence } from './matchers/evidence.ts'
import { EVAL_PROJECT_RUN, evalProjectEnv } from '../testing/eval-project-run.ts'

const tempDirs = useTempDirs()

describe('EVAL_HTML=1: a static Vitest UI of the run (the CI artifact)', () => {
  it('holds every case with its annotations: a failing question’s note and evidence image, and the run’s charts', () => {
    const reports = tempDirs.make('html-report-')
    const result = spawnSync(process.execPath, EVAL_PROJECT_RUN, {
      encoding: 'utf8',
      env: evalProjectEnv({ EVAL_STRICT: '1', EVAL_HTML: '1', EVAL_REPORTS_DIR: reports }),
    })
    // Strict: every miss fails, so the run fails, and the report is written all the same.
    expect(result.status, result.stdout + result.stderr).toBe(1)
    const html = join(reports, 'html')
    expect(readFileSync(join(html, 'index.html'), 'utf8')).toContain('<div id="app"')
    // The UI's data: Vitest's files, tasks and annotations, strings stored once each (flatted), JSON-escaped.
    const meta = gunzipSync(readFileSync(join(html, 'html.meta.json.gz'))).toString('utf8')
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
