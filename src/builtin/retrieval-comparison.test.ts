import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { compareReports } from '../compare/compare-reports.ts'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { Report } from '../contract/report-schema.ts'
import { evaluate } from '../run/evaluate.ts'

// docs/comparing.md quotes these numbers; this test recomputes them (the same runs as the commands the
// page gives) and holds the page to them, so the page cannot drift from what `rag-eval compare` says.

const project = await loadProjectConfig()
const OLD = {
  EVAL_BM25_COORDINATION: '1',
  EVAL_BM25_B: '0.7',
  EVAL_BM25_DELTA: '0.5',
  EVAL_POSSESSIVES: '0',
  EVAL_TITLE_WEIGHT: '0',
}
const SYSTEMS = {
  old: OLD,
  Lucene: { EVAL_TITLE_WEIGHT: '0' },
  'Lucene + title': {},
  'title ×2': { EVAL_TITLE_WEIGHT: '2' },
  hybrid: { EVAL_RETRIEVER: 'hybrid' },
  'proximity top 10': { EVAL_RERANKER: 'proximity', EVAL_RERANK_TOP_N: '10' },
  'proximity top 20': { EVAL_RERANKER: 'proximity' },
  'proximity top 50': { EVAL_RERANKER: 'proximity', EVAL_RERANK_TOP_N: '50' },
  'hybrid + proximity': { EVAL_RETRIEVER: 'hybrid', EVAL_RERANKER: 'proximity' },
} satisfies Record<string, Record<string, string>>
type System = keyof typeof SYSTEMS
const PAIRS: [a: System, b: System][] = [
  ['old', 'Lucene'],
  ['Lucene', 'Lucene + title'],
  ['old', 'Lucene + title'],
  ['Lucene + title', 'title ×2'],
  ['Lucene + title', 'hybrid'],
  ['Lucene + title', 'proximity top 10'],
  ['Lucene + title', 'proximity top 20'],
  ['Lucene + title', 'proximity top 50'],
  ['hybrid', 'hybrid + proximity'],
]
const METRICS = [
  ['recall', 'recall (context)'],
  ['recallAtK', 'recall@10'],
  ['mrr', 'MRR'],
  ['ndcg10', 'nDCG@10'],
  ['coverage', 'coverage'],
] as const

const f4 = (value: number | null) => (value === null ? 'n/a' : value.toFixed(4))
const f3 = (value: number) => value.toFixed(3)
const signed = (value: number) => `${value >= 0 ? '+' : '-'}${Math.abs(value).toFixed(4)}`
const pValue = (p: number) => (p < 0.001 ? p.toFixed(4) : p < 0.1 ? p.toFixed(3) : p.toFixed(2))

function systemRow(name: string, report: Report): string {
  const cells = METRICS.map(([key]) => {
    const interval = report.summary.intervals[key]!
    return `${f4(report.summary[key])} [${f3(interval.low)}, ${f3(interval.high)}]`
  })
  return `| ${name} | ${cells.join(' | ')} |`
}

function pairRows(a: System, b: System, reports: Record<System, Report>): string[] {
  const side = { kind: 'config' as const, env: {}, report: null }
  const result = compareReports(
    reports[a],
    reports[b],
    { a: { ...side, source: a }, b: { ...side, source: b } },
    { resamples: 2000, alpha: 0.05 },
  )
  return METRICS.map(([key, label]) => {
    const m = result.metrics.find((metric) => metric.name === key)!
    const verdict = m.verdict === 'no-difference' ? 'within noise' : `**B ${m.verdict}**`
    const flips = m.discordant ? ` (${m.discordant.worse} worse, ${m.discordant.better} better)` : ''
    return `| ${a} → ${b} | ${label} | ${f4(m.a)} | ${f4(m.b)} | ${signed(m.delta!)} [${f3(m.deltaInterval!.low)}, ${f3(m.deltaInterval!.high)}] | ${pValue(m.pValue!)} | ${verdict}${flips} |`
  })
}

describe('docs/comparing.md', () => {
  it('quotes the runs and the paired comparisons that `rag-eval compare` gives on this repository', async () => {
    const reports = {} as Record<System, Report>
    for (const [name, env] of Object.entries(SYSTEMS))
      reports[name as System] = await evaluate(project, { tier: 'full', env, baselineRoot: null })
    const page = readFileSync('docs/comparing.md', 'utf8')
    const expected = [
      ...Object.keys(SYSTEMS).map((name) => systemRow(name, reports[name as System])),
      ...PAIRS.flatMap(([a, b]) => pairRows(a, b, reports)),
    ]
    expected.push(`minimum detectable drop of recall is ${reports['Lucene + title'].summary.minimumDetectableRecallDrop}`)
    const missing = expected.filter((row) => !page.includes(row))
    expect(missing, `rows of docs/comparing.md to update:\n${missing.join('\n')}`).toEqual([])
  })
})
