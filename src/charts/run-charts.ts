import { DIAGNOSIS_NAME } from '../contract/diagnoses.ts'
import type { Report } from '../contract/report-schema.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'
import { diagnosisChart, diagnosisDots } from './diagnosis-chart.ts'
import { funnelChart } from './funnel-chart.ts'
import { latencyChart, latencyRows } from './latency-chart.ts'
import { metricIntervalsChart, metricRows } from './metric-intervals-chart.ts'
import { deltaChart, flipChart, type ComparedMetric, type FlippedQuestions } from './comparison-charts.ts'

/** The folder, beside latest.md and compare.md, the charts are written to (and linked from, relatively). */
export const CHARTS_DIR = 'charts'

/** A chart of a run or a comparison: its file name under charts/, its title, and its SVG, rendered on demand. */
export interface Chart {
  file: string
  title: string
  render: () => string
}

/** The charts a run has data for (docs/charts.md): metrics always, diagnosis in the full tier, latency when timed, the funnel with answer documents. */
export function runCharts(report: Report, table: MetricTable = METRICS): Chart[] {
  const charts: Chart[] = [
    {
      file: 'metrics.svg',
      title: report.gate?.baseline
        ? 'Gated metrics: this run vs the baseline, with 95% intervals'
        : 'Gated metrics, with 95% intervals',
      render: () => metricIntervalsChart(metricRows(report, table)),
    },
  ]
  if (report.summary.diagnosis !== null)
    charts.push({
      file: 'diagnosis.svg',
      title: `Diagnosis: ${DIAGNOSIS_NAME}, one dot per question`,
      render: () => diagnosisChart(diagnosisDots(report.questions)),
    })
  if (latencyRows(report).length > 0)
    charts.push({
      file: 'latency.svg',
      title: 'Latency of the system and the judge',
      render: () => latencyChart(latencyRows(report)),
    })
  const funnel = report.summary.funnel
  if (funnel !== null)
    charts.push({
      file: 'funnel.svg',
      title: 'Loss funnel: where the answer documents were lost',
      render: () => funnelChart(funnel),
    })
  return charts
}

/** What the comparison charts read of compare.json. */
export interface ComparisonChartInput {
  metrics: readonly ComparedMetric[]
  flips: readonly FlippedQuestions[]
}

/** The charts of a comparison: each metric's change with its interval, and the questions that flipped. */
export function comparisonCharts(result: ComparisonChartInput): Chart[] {
  return [
    {
      file: 'compare-deltas.svg',
      title: 'B vs A: each metric’s change with its 95% interval',
      render: () => deltaChart(result.metrics),
    },
    { file: 'compare-flips.svg', title: 'Questions that flipped from A to B', render: () => flipChart(result.flips) },
  ]
}

/** The Markdown that shows the charts (relative links: they render on GitHub and in a downloaded CI artifact). */
export function chartLinks(charts: readonly Chart[]): string[] {
  return charts.map((chart) => `![${chart.title}](${CHARTS_DIR}/${chart.file})`)
}
