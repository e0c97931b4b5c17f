import type { Report } from '../contract/report-schema.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'
import { overall, stageMetrics, summaryValue, type MetricEntry } from '../contract/metrics/metric.ts'
import type { BaselineSummary } from './baseline-schema.ts'
import { compareMetric } from './regression.ts'

/**
 * Where a regressed metric's drop first appears along the stages, when this run and the baseline both hold its
 * values at every stage: "lost at rerank (recall@retrieve held at 0.91)", or "lost after the stages (recall@rerank
 * held at 0.9)" when every stage held; null for a per-type entry, a metric not measured per stage, or stages the
 * baseline lacks.
 */
export function lostAtStage(
  entry: MetricEntry,
  report: Report,
  baseline: BaselineSummary,
  tolerance: number,
  table: MetricTable = METRICS,
): string | null {
  if (entry.name !== entry.metric.name || baseline.stages === undefined) return null
  const atStages = stageMetrics(table, Object.keys(report.summary.stages))
    .filter((metric) => metric.at?.metric === entry.metric)
    .map(overall)
  let held = ''
  for (const stage of atStages) {
    const comparison = compareMetric(summaryValue(report.summary, stage.path), baseline.stages[stage.name] ?? null, tolerance)
    if (comparison.status === 'not-comparable') return null
    if (comparison.status === 'regressed') return `lost at ${stage.metric.at!.stage}${held && ` (${held})`}`
    held = `${stage.name} held at ${comparison.current}`
  }
  return held && `lost after the stages (${held})`
}
