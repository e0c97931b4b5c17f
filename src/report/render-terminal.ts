import { trialsLines } from './render-trials.ts'
import type { Report } from '../contract/report-schema.ts'
import { formatTable } from '../common/format-table.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'
import { diagnosisRows, generationSummaryRows, retrievalSummaryRows } from './summary-table.ts'
import {
  describeGatePolicy,
  gateMetricRows,
  renderAdvisory,
  renderQuestionChanges,
  renderRegressions,
  renderStaleness,
  renderSystemErrors,
} from './render-gate.ts'
import { renderCalibration } from './render-calibration.ts'
import { renderModelRun, renderWarnings } from './render-model-run.ts'
import { describeProvenance, provenanceLine } from './render-provenance.ts'
import { attacksLine } from './render-attacks.ts'

/** The end-of-run summary for the terminal: what ran, the metrics table per type, and the misses. */
export function renderTerminalSummary(report: Report, table: MetricTable = METRICS): string {
  const { config, summary, corpus } = report
  // A question the system failed on is not a miss: it is listed apart, with its error.
  const misses = report.questions.filter((q) => q.type !== 'none' && !q.hit && q.systemError === null)
  const errored = report.questions.filter((q) => q.systemError !== null)
  const judge = summary.judge === null ? 'no answers (retrieval tier)' : `judge ${summary.judge}`
  const lines = [
    `${config.system} · ${report.tier} tier · mode ${config.mode} · ${corpus.documents ?? 'n/a'} docs ` +
      `/ ${corpus.chunks ?? 'n/a'} chunks · ${summary.questions} questions (${summary.answerable} ` +
      `answerable, ${summary.questionsByType.none} none) · budget ${config.budgetTokens} tokens · ${judge}`,
    ...renderExcluded(report),
    ...provenanceLine(report.questions),
    ...renderWarnings(report),
    renderLatency(report),
    ...renderModelRun(report),
    '',
    formatTable(retrievalSummaryRows(summary, config.k, table), 'text'),
    renderDetectableDrop(report),
    // latest.md's trials section without its blank lines and heading mark.
    ...(report.trials ? trialsLines(report.trials).flatMap((line) => (line === '' ? [] : [line.replace(/^## /, '')])) : []),
    '',
    // Tables with no rows (no judge; no answer to judge) are left out rather than printed empty.
    ...[generationSummaryRows(summary, table), diagnosisRows(summary)]
      .filter((rows) => rows.length > 0)
      .flatMap((rows) => [formatTable(rows, 'text'), '']),
    misses.length === 0 ? 'misses: none' : `misses (${misses.length}): ${misses.map(describeMiss).join('\n  ')}`,
    ...(errored.length === 0
      ? []
      : [
          `system errors (${errored.length}, not measured: maxSystemErrorRate ${config.maxSystemErrorRate}): ${errored.map((q) => `${q.id} [${q.type}] ${q.systemError}`).join('\n  ')}`,
        ]),
    ...(report.attacks === undefined ? [] : [attacksLine(report.attacks, config.maxAttackSuccessRate ?? 0)]),
  ]
  const skipped = Object.keys(summary.notComputed)
  if (skipped.length > 0) lines.push(`not computed: ${skipped.join(', ')} (reasons in the report)`)
  if (report.calibration) lines.push('', ...renderCalibration(report.calibration, report.config.judgeCorrection))
  if (report.gate) lines.push('', ...renderGate(report.gate))
  return lines.join('\n')
}

/** The corpus files include/exclude left out: counted and named (the first five), so nothing is skipped in silence. */
export function renderExcluded(report: Report): string[] {
  const { excluded } = report.corpus
  if (excluded.length === 0) return []
  const shown = excluded.slice(0, 5).map((e) => `${e.file} (${e.reason})`)
  return [
    `corpus: ${excluded.length} file(s) left out by ` +
      `include/exclude: ${shown.join(', ')}${excluded.length > 5 ? `, and ${excluded.length - 5} more (report: corpus.excluded)` : ''}`,
  ]
}

/** One line on what the golden set can resolve: the smallest recall drop a paired test would notice. */
export function renderDetectableDrop(report: Report): string {
  const { minimumDetectableRecallDrop: drop, answerable } = report.summary
  const intervals = 'intervals: 95%, Wilson for rates, bootstrap for means'
  if (drop === null)
    return (
      `${intervals}; minimum detectable drop of recall: ` +
      `n/a (${report.summary.notComputed.minimumDetectableRecallDrop ?? 'not computed'})`
    )
  return (
    `${intervals}; minimum detectable drop of recall: ${drop.toFixed(3)} (80% power, ` +
    `alpha ${report.config.alpha}, ${answerable} answerable questions): ` +
    `a smaller regression cannot be told from noise`
  )
}

/** The latency bill, per stage (p50/p95 in ms), and in offline mode the (nil) money bill. */
export function renderLatency(report: Report): string {
  const stage = (name: string, value: { p50: number; p95: number } | null) =>
    value === null ? null : `${name} ${value.p50.toFixed(2)}/${value.p95.toFixed(2)} ms`
  const { retrieve, generate, judge } = report.run.latencyMs
  const stages = [stage('retrieve', retrieve), stage('generate', generate), stage('judge', judge)].filter((s) => s !== null)
  const money = report.config.mode === 'offline' ? ' · cost $0 (offline: no model calls)' : ''
  return `latency p50/p95: ${stages.join(', ')}${money} · run ${Math.round(report.run.durationMs)} ms`
}

/** The gate part of the summary; ends with the regressions table, which is the last thing printed. */
export function renderGate(gate: NonNullable<Report['gate']>): string[] {
  const lines: string[] = []
  if (gate.baseline !== null) lines.push(formatTable(gateMetricRows(gate), 'text'), describeGatePolicy(gate), '')
  lines.push(...renderStaleness(gate), ...renderQuestionChanges(gate), ...renderAdvisory(gate), ...renderSystemErrors(gate))
  if (lines.length > 0 && lines.at(-1) !== '') lines.push('')
  lines.push(renderRegressions(gate, 'text'))
  return lines
}

/** A missed question as the terminal lists it: what was expected, and which documents the context held. */
function describeMiss(q: Report['questions'][number]): string {
  const origin = describeProvenance(q.provenance)
  return (
    `${q.id} [${q.type}]${origin === '' ? '' : ` (${origin})`} expected ${q.answerDocIds.join('+')}, ` +
    `context ${[...new Set(q.contextDocIds)].join(', ') || 'empty'}`
  )
}
