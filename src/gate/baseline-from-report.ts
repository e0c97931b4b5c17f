import type { Report } from '../contract/report-schema.ts'
import { baselineQuestion, type Baseline, type BaselineSummary } from './baseline-schema.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'
import { gatedEntries, overall, stageMetrics, summaryValue } from '../contract/metrics/metric.ts'

/**
 * The baseline a report would become: stable-ordered (questions by id); questions the system failed on are left
 * out (never known misses) and named in systemErrors.
 */
export function baselineFromReport(report: Report, table: MetricTable = METRICS): Baseline {
  // The baseline keeps the knobs alone: the system is recorded apart, and `retriever` repeats retrieval.kind.
  const { system, retriever: _kind, ...config } = report.config
  const staged = stageMetrics(table, Object.keys(report.summary.stages))
    .filter((metric) => metric.at?.metric.gated !== false)
    .map(overall)
  const summary: BaselineSummary = {
    schemaVersion: 1,
    system,
    config,
    models: { generator: report.config.generatorModel, judge: report.config.judgeModel },
    judgePromptsHash: report.inputs.judgePromptsHash,
    goldenSetHash: report.inputs.goldenSetHash,
    corpusHash: report.inputs.corpusHash,
    metrics: Object.fromEntries(gatedEntries(table).map((metric) => [metric.name, summaryValue(report.summary, metric.path)])),
    ...(staged.length === 0
      ? {}
      : { stages: Object.fromEntries(staged.map((entry) => [entry.name, summaryValue(report.summary, entry.path)])) }),
  }
  const sorted = [...report.questions].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const questions = sorted.filter((q) => q.systemError === null).map(baselineQuestion)
  const systemErrors = sorted.filter((q) => q.systemError !== null).map((q) => q.id)
  const { latencyMs, stageLatencyMs, costPerQuestion } = report.run
  const run = { schemaVersion: 1 as const, latencyMs, stageLatencyMs, costPerQuestion }
  return { summary, questions, ...(systemErrors.length > 0 ? { systemErrors } : {}), run }
}
