import type { MetricVerdict } from '../contract/gate-schema.ts'
import type { JudgeCorrectedRate, Report } from '../contract/report-schema.ts'
import { round4 } from '../statistics/descriptive.ts'

/**
 * judgeCorrection 'ppi' (docs/judging.md): the baseline's judge mean minus today's rectifier is compared with the
 * corrected 95% interval: regressed when it lies wholly below it minus the tolerance, improved when above it plus
 * the tolerance. Blocks even while the judge is advisory (it rests on the labels); the policy does not apply.
 * Unchanged under 'none' or without a corrected estimate.
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
