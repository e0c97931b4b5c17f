import type { Interval } from '../contract/interval-schema.ts'
import { wilsonInterval } from './wilson-interval.ts'

/** Fewer values than this away from a bound of [0, 1] say too little about the spread of the rest. */
const SPREAD_SEEN = 3

/**
 * A bootstrap interval of a mean of values in [0, 1], reaching as far as the values at the bounds allow: with fewer
 * than 3 values below 1, the mean may be as low as the share of ones (Wilson's low end), since the unseen rest may
 * lie anywhere; mirrored at 0. Values outside [0, 1] leave the interval as it is.
 */
export function boundedMeanInterval(interval: Interval, values: readonly number[], level?: number): Interval {
  if (values.some((value) => value < 0 || value > 1)) return interval
  const n = values.length
  const ones = values.filter((value) => value === 1).length
  const aboveZero = values.filter((value) => value > 0).length
  return {
    ...interval,
    low: n - ones < SPREAD_SEEN ? Math.min(interval.low, wilsonInterval(ones, n, level)!.low) : interval.low,
    high: aboveZero < SPREAD_SEEN ? Math.max(interval.high, wilsonInterval(aboveZero, n, level)!.high) : interval.high,
  }
}
