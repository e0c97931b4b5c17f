import type { Summary } from '../contract/report-schema.ts'
import { formatInterval, formatMetric } from '../common/format-table.ts'
import { funnelSteps } from '../charts/funnel-chart.ts'
import { ANSWERABLE_TYPES } from '../contract/question-types.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'
import { stageMetrics, summaryKey, summaryValue, type Metric } from '../contract/metrics/metric.ts'

/** A summary value (its path) with its 95% interval when it has one: `0.8879 [0.81, 0.93]`. */
function withInterval(summary: Summary, path: string): string {
  const value = summaryValue(summary, path)
  const interval = summary.intervals[path]
  return interval ? `${formatMetric(value)} ${formatInterval(interval)}` : formatMetric(value)
}

/**
 * The retrieval summary's rows, overall then per answerable type; a metric reported apart shows only when it stands
 * in for one the run could not compute (doc-level nDCG@10 without chunk counts); then the metrics at each stage.
 */
export function retrievalSummaryRows(summary: Summary, k: number, table: MetricTable = METRICS): string[][] {
  const row = (metric: Metric) => [
    metric.label.replace('@k', `@${k}`),
    withInterval(summary, summaryKey(metric)),
    ...ANSWERABLE_TYPES.map((t) =>
      metric.byType === 'summary' ? withInterval(summary, `${summaryKey(metric)}ByType.${t}`) : '',
    ),
  ]
  const standsIn = (metric: Metric) =>
    metric.standsInFor !== undefined &&
    summaryValue(summary, metric.standsInFor) === null &&
    summaryValue(summary, metric.name) !== null
  const retrieval = table.filter((metric) => metric.source === 'retrieval')
  return [
    ['metric', 'all', ...ANSWERABLE_TYPES],
    ['questions', String(summary.answerable), ...ANSWERABLE_TYPES.map((t) => String(summary.questionsByType[t]))],
    ...retrieval.filter((metric) => !metric.reportedApart).map(row),
    ...retrieval.filter(standsIn).map(row),
    ...stageMetrics(table, Object.keys(summary.stages)).map(row),
  ]
}

/** The generation summary's rows, with P10 (the worst tenth's edge) where a metric has one; empty in the retrieval tier. */
export function generationSummaryRows(summary: Summary, table: MetricTable = METRICS): string[][] {
  if (summary.judge === null) return []
  return [
    ['generation', 'mean [95% interval]', 'P10'],
    ...table
      .filter((metric) => metric.source !== 'retrieval' && !metric.reportedApart)
      .map((metric) => [
        metric.label,
        withInterval(summary, metric.name),
        metric.p10 ? formatMetric(summaryValue(summary, `${metric.name}P10`)) : '',
      ]),
  ]
}

/** The loss funnel's rows: how many answer documents were lost where; empty without answerable questions. */
export function funnelRows(summary: Summary): string[][] {
  const funnel = summary.funnel
  if (funnel === null) return []
  return [
    ['answer documents', String(funnel.documents)],
    ...funnelSteps(funnel).map((step) => [step.label, `${step.count} (${Math.round((100 * step.count) / funnel.documents)}%)`]),
  ]
}

/** Where to look for each cell of the recall x faithfulness table. */
const WHERE_TO_LOOK = {
  healthy: 'nothing to fix',
  'model ignores context': 'the answer: prompt, model, refusal threshold (the context had the answer)',
  'retrieval misses': 'retrieval: chunking, ranking, context budget (the model stayed with what it got)',
  'both broken': 'retrieval first, then the answer',
} as const

/** The aggregate recall x faithfulness (2x2) table: answerable questions per diagnosis, with where to look. */
export function diagnosisRows(summary: Summary): string[][] {
  const counts = summary.diagnosis
  if (counts === null) return []
  return [
    ['', 'model fine', 'model not fine'],
    ['context hit', `healthy: ${counts.healthy}`, `model ignores context: ${counts['model ignores context']}`],
    ['context miss', `retrieval misses: ${counts['retrieval misses']}`, `both broken: ${counts['both broken']}`],
  ]
}

export function whereToLook(summary: Summary): string[] {
  const counts = summary.diagnosis
  if (counts === null) return []
  return (Object.keys(WHERE_TO_LOOK) as (keyof typeof WHERE_TO_LOOK)[])
    .filter((d) => counts[d] > 0)
    .map((d) => `${d} (${counts[d]}): ${WHERE_TO_LOOK[d]}`)
}
