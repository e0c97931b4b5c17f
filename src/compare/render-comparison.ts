import { flakyLine } from '../report/render-trials.ts'
import { formatInterval, formatMetric, formatPValue, formatTable, formatDelta } from '../common/format-table.ts'
import { chartLinks, comparisonCharts } from '../charts/run-charts.ts'
import type { CompareResult, Flip } from './comparison-schema.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'

const TEST_NAMES = { 'mcnemar-exact': 'McNemar', 'paired-permutation': 'permutation' } as const

function verdictCell(metric: CompareResult['metrics'][number], alpha: number): string {
  const counts = metric.discordant ? ` (${metric.discordant.worse} worse, ${metric.discordant.better} better)` : ''
  if (metric.verdict === 'worse') return `B worse, p < ${alpha}${counts}`
  if (metric.verdict === 'better') return `B better, p < ${alpha}${counts}`
  return `within noise${counts}`
}

/** The metrics table: per metric and per type, A, B, delta, its interval, p-value, test and verdict. Metrics without pairs are left out. */
export function comparisonRows(result: CompareResult): string[][] {
  return [
    ['metric', 'n', 'A', 'B', 'delta', '95% interval', 'p', 'test', 'verdict'],
    ...result.metrics
      .filter((m) => m.pairs > 0)
      .map((m) => [
        m.label,
        String(m.pairs),
        formatMetric(m.a),
        formatMetric(m.b),
        formatDelta(m.delta),
        formatInterval(m.deltaInterval, 3),
        formatPValue(m.pValue),
        TEST_NAMES[m.test],
        verdictCell(m, result.alpha),
      ]),
  ]
}

/** `q-013 [multi] doc-022 rank 3 -> 3, context yes -> no; doc-023 rank 1 -> 1, context yes -> yes`. */
function flipLine(flip: Flip): string {
  const rank = (r: number | null | undefined) => (r === null || r === undefined ? 'unranked' : String(r))
  const inContext = (side: Flip['a'], doc: string) => (side.contextDocIds.includes(doc) ? 'yes' : 'no')
  const docs = flip.answerDocIds.map(
    (doc, i) =>
      `${doc} rank ${rank(flip.a.answerRanks[i])} -> ${rank(flip.b.answerRanks[i])}, ` +
      `in context ${inContext(flip.a, doc)} -> ${inContext(flip.b, doc)}`,
  )
  const refusal = (side: Flip['a']) => (side.refused === null ? 'n/a' : side.refused ? 'refused' : 'answered')
  const answer = flip.a.refused === flip.b.refused ? '' : `; ${refusal(flip.a)} -> ${refusal(flip.b)}`
  return `${flip.id} [${flip.type}] ${docs.length > 0 ? docs.join('; ') : 'no answer document'}${answer}`
}

/** The questions that flipped, per binary metric, each with its evidence. */
export function flipLines(result: CompareResult, table: MetricTable = METRICS): string[] {
  const lines: string[] = []
  for (const { metric, label, worse, better } of result.flips) {
    if (worse.length === 0 && better.length === 0) continue
    const words = table.find((m) => m.name === metric)?.flips ?? { worse: 'worse', better: 'better' }
    lines.push(`${label}: ${worse.length} ${words.worse}, ${better.length} ${words.better}`)
    for (const flip of worse) lines.push(`  ${words.worse}: ${flipLine(flip)}`)
    for (const flip of better) lines.push(`  ${words.better}: ${flipLine(flip)}`)
  }
  return lines
}

function sideLine(name: 'A' | 'B', side: CompareResult['a']): string {
  const env = Object.entries(side.env).map(([key, value]) => `${key}=${value}`)
  return (
    `${name}: ${side.source}${env.length > 0 ? ` with ${env.join(' ')}` : ''} ` +
    `(${side.kind === 'config' ? `evaluated, ${side.tier} tier` : `report, ${side.tier} tier`}, ` +
    `system ${side.system})`
  )
}

/** Each side's system errors and what was left out for them; no lines when neither side has any. */
export function systemErrorLines(result: CompareResult): string[] {
  const errors = result.systemErrors
  if (errors === undefined) return []
  const side = (name: 'A' | 'B', list: { id: string; error: string }[]) => [
    `${name}: ${list.length} system error(s)${list.length > 0 ? ':' : ''}`,
    ...list.map((q) => `  ${q.id}: ${q.error}`),
  ]
  return [
    `system errors (not misses): ${errors.leftOut} question(s) errored in A or B, left out of every paired test and of the flips (A ${errors.a.length}, B ${errors.b.length})`,
    ...side('A', errors.a),
    ...side('B', errors.b),
  ]
}

/** The comparison for the terminal (text) or compare.md (markdown). */
export function renderComparison(result: CompareResult, style: 'text' | 'markdown'): string {
  const bullet = (line: string) => (style === 'markdown' ? `- ${line}` : `  ${line}`)
  const unpaired = result.metrics.filter((m) => m.pairs === 0).map((m) => m.name)
  const flips = flipLines(result)
  // compare.md shows its charts (written beside it under charts/ by writeComparison).
  const [deltas, flipped] = chartLinks(comparisonCharts(result))
  const lines = [
    ...(style === 'markdown' ? ['# A/B comparison', ''] : []),
    bullet(sideLine('A', result.a)),
    bullet(sideLine('B', result.b)),
    '',
    `${result.questions} questions, paired: each metric over the questions with a value in both runs; ` +
      `95% paired bootstrap interval of B - A (${result.resamples} resamples); ` +
      `two-sided p-value (exact McNemar for yes/no outcomes, sign-flip permutation for continuous values); ` +
      `alpha ${result.alpha}.`,
    '',
    ...(result.configDifferences.length > 0
      ? ['What differs:', ...result.configDifferences.map(bullet), '']
      : ['The two runs have the same config.', '']),
    ...result.warnings.map((w) => `warning: ${w}`),
    ...(result.warnings.length > 0 ? [''] : []),
    ...systemErrorLines(result).map((line, i) =>
      style === 'text' || i === 0 ? line : line.startsWith('  ') ? `  - ${line.trimStart()}` : `- ${line}`,
    ),
    ...(result.systemErrors ? [''] : []),
    ...(['a', 'b'] as const).flatMap((side) =>
      result.flaky
        ? [
            `${side.toUpperCase()}: ${result.flaky[side].length} flaky question(s) over trials`,
            ...result.flaky[side].map((f) => bullet(flakyLine(f))),
            '',
          ]
        : [],
    ),
    formatTable(comparisonRows(result), style),
    '',
    ...(style === 'markdown' ? [deltas, ''] : []),
    ...(unpaired.length > 0 ? [`no pairs (not measured in both runs): ${unpaired.join(', ')}`, ''] : []),
    ...(style === 'markdown' ? ['## Questions that flipped', '', flipped, ''] : []),
    ...(flips.length > 0
      ? flips.map((line) => (style === 'markdown' ? (line.startsWith('  ') ? `  - ${line.trimStart()}` : `- ${line}`) : line))
      : ['No question flipped a yes/no outcome.']),
  ]
  return lines.join('\n') + '\n'
}
