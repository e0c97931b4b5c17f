import { round4 } from '../statistics/descriptive.ts'
import type { Comparison } from '../contract/gate-schema.ts'

/**
 * Compares a higher-is-better metric with its baseline. Regressed when it fell by MORE than the
 * tolerance (a drop of exactly the tolerance holds); improved when it rose by more than the tolerance.
 * Deltas are taken on 4-decimal values, as reported, so float noise never decides. Not comparable when
 * either side is null (the metric was not computed in one of the runs).
 */
export function compareMetric(current: number | null, baseline: number | null, tolerance: number): Comparison {
  if (current === null || baseline === null) {
    const reason = current === null ? 'not computed in this run' : 'not in the baseline'
    return { status: 'not-comparable', baseline, current, delta: null, reason }
  }
  const delta = round4(round4(current) - round4(baseline))
  const status = delta < -tolerance ? 'regressed' : delta > tolerance ? 'improved' : 'held'
  return { status, baseline, current, delta, reason: null }
}
