import type { MetricVerdict } from '../contract/gate-schema.ts'
import type { JudgeCorrectedRate, Report } from '../contract/report-schema.ts'
import { clipToRate, round4 } from '../statistics/descriptive.ts'

/**
 * judgeCorrection 'ppi' (docs/judging.md): the baseline's judge mean minus today's rectifier is compared with the
 * corrected 95% interval, both clipped to [0, 1]: regressed when the judge's mean fell and the interval lies wholly
 * below it minus the tolerance, improved when it rose and the interval lies above it plus the tolerance. Blocks even while the judge is advisory (it rests on the labels); the policy does not apply.
 * Unchanged under 'none' or without a corrected estimate.
 */
export function correctedVerdict(verdict: MetricVerdict, report: Report, tolerance: number): MetricVerdict {
  const corrected: Partial<Record<string, JudgeCorrectedRate>> = report.calibration?.judgeCorrected ?? {}
  const rate = corrected[verdict.name]
  if (report.config.judgeCorrection !== 'ppi' || !rate || rate.interval === null || rate.rectifier === null) return verdict
  if (verdict.baseline === null || verdict.current === null) return verdict
  // Clipped as the estimate is, so an unchanged judge mean gives the baseline the estimate itself; and a direction
  // only where the judge's own mean moved that way.
  const baseline = round4(clipToRate(verdict.baseline - rate.rectifier))
  const change = verdict.current - verdict.baseline
  const status =
    change < 0 && rate.interval.high < baseline - tolerance
      ? 'regressed'
      : change > 0 && rate.interval.low > baseline + tolerance
        ? 'improved'
        : 'held'
  return { ...verdict, status, judgeCorrection: { estimate: rate.estimate, interval: rate.interval, baseline } }
}
