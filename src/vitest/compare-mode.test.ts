import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gunzipSync } from 'node:zlib'
import { CompareResultSchema } from '../compare/comparison-schema.ts'
import { comparisonCharts } from '../charts/run-charts.ts'
import { deltaChart } from '../charts/comparison-charts.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { EVAL_PROJECT_RUN, evalProjectEnv } from '../testing/eval-project-run.ts'

const tempDirs = useTempDirs()
const repo = (path: string) => JSON.stringify(resolve(path))

describe("EVAL_COMPARE=<config>: a case per metric against that config's run", () => {
  it('fails the metrics B is significantly worse on (a 120-token context budget: recall), passes the rest, and writes compare.json', () => {
    const dir = tempDirs.make('compare-mode-')
    const bConfig = join(dir, 'b.config.ts')
    // The repository's project with a context budget of 120 tokens: the ranking is the same, the context much smaller.
    writeFileSync(
      bConfig,
      `export default { corpus: ${repo('corpus')}, goldenSet: ${repo('evals/golden-set.json')}, humanLabels: ${repo('evals/human-labels.json')}, budgetTokens: 120 }\n`,
    )
    const reports = join(dir, 'reports')
    const result = spawnSync(process.execPath, EVAL_PROJECT_RUN, {
      encoding: 'utf8',
      env: evalProjectEnv({ EVAL_REPORTS_DIR: reports, EVAL_COMPARE: bConfig, EVAL_HTML: '1' }),
    })
    const out = result.stdout + result.stderr
    expect(result.status).toBe(1)
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
    const meta = gunzipSync(readFileSync(join(reports, 'html', 'html.meta.json.gz'))).toString('utf8')
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
