import type { Interval } from '../contract/interval-schema.ts'
import { COVERAGE, FAITHFULNESS, METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'
import type { Calibration, JudgeCorrected } from '../contract/report-schema.ts'

const percent = (value: number) => `${+(value * 100).toFixed(1)}%`

/** " (95% CI low to high, method)" when the interval is known. */
function ci(interval: Interval | null | undefined, show: (value: number) => string, method: string): string {
  return interval ? ` (95% CI ${show(interval.low)} to ${show(interval.high)}, ${method})` : ''
}

const RATE_LABELS: Record<keyof JudgeCorrected, string> = {
  [FAITHFULNESS.name]: FAITHFULNESS.label,
  refusalCorrectness: 'refusal correctness',
  [COVERAGE.name]: COVERAGE.label,
}

/** The gated judge-derived metrics: advisory while the judge disagrees with people. */
const JUDGED = (METRICS as MetricTable).filter((metric) => metric.judgeDerived && metric.gated !== false)

/** Each judge-derived rate twice: the judge's own mean, then the estimate corrected by the labels (docs/judging.md). */
function renderJudgeCorrected(corrected: JudgeCorrected): string[] {
  const lines = [
    "judge-derived rates, the judge's own mean beside the estimate corrected by the human labels (prediction-powered, docs/judging.md):",
  ]
  for (const [key, label] of Object.entries(RATE_LABELS) as [keyof JudgeCorrected, string][]) {
    const rate = corrected[key]
    const judge = rate.judgeMean === null ? 'n/a' : rate.judgeMean.toFixed(4)
    const estimate =
      rate.estimate === null
        ? `not corrected: ${rate.reason}`
        : `corrected ${rate.estimate.toFixed(4)}${ci(rate.interval, (v) => v.toFixed(4), 'PPI')}, ${rate.labelled} of ${rate.questions} labelled`
    lines.push(`  ${label.padEnd(20)} judge ${judge}  ${estimate}`)
  }
  return lines
}

/** The gated judge metrics gated on their corrected estimates instead (judgeCorrection 'ppi': src/gate/judge-correction.ts). */
function correctedMetrics(calibration: Calibration, judgeCorrection: 'none' | 'ppi'): string[] {
  if (judgeCorrection !== 'ppi') return []
  const corrected: Partial<Record<string, { estimate: number | null }>> = calibration.judgeCorrected ?? {}
  return JUDGED.map((metric) => metric.name).filter((name) => corrected[name]?.estimate != null)
}

/** The agreement block: the judge against people's labels, kappa, the corrected rates, and each disagreement with the disputed sentences. */
export function renderCalibration(calibration: Calibration, judgeCorrection: 'none' | 'ppi' = 'none'): string[] {
  const agreement = calibration.agreement === null ? 'n/a' : `${(calibration.agreement * 100).toFixed(0)}%`
  const threshold = calibration.minAgreement === undefined ? '' : `; minJudgeAgreement ${percent(calibration.minAgreement)}`
  const corrected = correctedMetrics(calibration, judgeCorrection)
  const advisory = JUDGED.filter((metric) => !corrected.includes(metric.name)).map((metric) => metric.label)
  const lines = [
    `judge ${calibration.judge}${calibration.scripted ? ' (SCRIPTED recording, not a model)' : ''} vs ${calibration.compared} human label(s) in ${calibration.labelsFile}: agreement ${agreement}${ci(calibration.agreementInterval, percent, 'Wilson')}, Cohen's kappa ${calibration.kappa ?? 'n/a'}${ci(calibration.kappaInterval, String, 'bootstrap')}${threshold}`,
    calibration.advisory
      ? `ADVISORY: the judge's metrics (${advisory.join(', ')}) do not block the gate: ${calibration.reason}${corrected.length === 0 ? '' : `; ${corrected.join(' and ')} ${corrected.length === 1 ? 'is' : 'are'} gated on the corrected estimate (judgeCorrection ppi)`}`
      : `the judge may block the gate: ${calibration.reason}`,
  ]
  if (calibration.judgeCorrected) lines.push(...renderJudgeCorrected(calibration.judgeCorrected))
  if (calibration.stale.length > 0)
    lines.push(`labels on answers that changed since (relabel with rag-eval label): ${calibration.stale.join(', ')}`)
  for (const d of calibration.disagreements)
    lines.push(`  ${d.id}: human ${d.human}, judge ${d.judge}; disputed: ${d.disputed.map((s) => `"${s}"`).join(' ')}`)
  return lines
}
