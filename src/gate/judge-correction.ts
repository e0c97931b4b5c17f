import type { MetricVerdict } from '../contract/gate-schema.ts'
import type { JudgeCorrectedRate, Report } from '../contract/report-schema.ts'
import { round4 } from '../statistics/descriptive.ts'

/**
 * judgeCorrection 'ppi' (docs/judging.md): a judge-derived metric with a corrected estimate (the calibration's
 * rate of the metric's name) is judged on it. The baseline holds the judge's mean (baselines carry no labels), so it is put on the people's scale
 * with the error the labels measure now (baseline - rectifier); the metric regresses when the whole
 * corrected 95% interval lies below that minus the tolerance, improves when it lies above it plus the
 * tolerance, and holds otherwise; the gate's policy does not apply to it. Such a verdict may block even
 * while the judge is advisory: the correction rests on the labels, not on the judge's agreement. Under
 * 'none', or without a corrected estimate, the verdict is left as it is.
 */
export function correctedVerdict(verdict: MetricVerdict, report: Report, tolerance: number): MetricVerdict {
  const corrected: Partial<Record<string, JudgeCorrectedRate>> = report.calibration?.judgeCorrected ?? {}
  const rate = corrected[verdict.name]
  if (report.config.judgeCorrection !== 'ppi' || !rate || rate.interval === null || rate.rectifier === null) return verdict
  if (verdict.baseline === null || verdict.current === null) return verdict
  const baseline = round4(verdict.baseline - rate.rectifier)
  const status =
    rate.interval.high < baseline - tolerance ? 'regressed' : rate.interval.low > baseline + tolerance ? 'improved' : 'held'
  return { ...verdict, status, judgeCorrection: { estimate: rate.estimate, interval: rate.interval, baseline } }
}
