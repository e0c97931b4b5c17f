import { round4 } from '../statistics/descriptive.ts'
import type { Comparison } from '../contract/gate-schema.ts'

/**
 * A higher-is-better metric against its baseline: regressed when it fell by more than the tolerance (exactly the
 * tolerance holds), improved likewise. Deltas on 4-decimal values, as reported, so float noise never decides;
 * not comparable when either is null.
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
