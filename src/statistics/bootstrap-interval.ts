import { Mulberry32 } from './seeded-random.ts'
import { serialMeanResampler, type MeanResampler } from './mean-resamples.ts'
import type { Interval } from '../contract/interval-schema.ts'
import { checkLevel, DEFAULT_LEVEL } from './interval.ts'
import { normalCdf } from './normal-cdf.ts'
import { normalQuantile } from './normal-quantile.ts'
import { studentQuantile } from './student-quantile.ts'

export interface BootstrapOptions {
  /** Number of bootstrap resamples (the suite's default is 2,000). */
  resamples: number
  /** Seed of the resampling (mulberry32), so the same data always gives the same interval. */
  seed: number
  /** Confidence level; 0.95 when absent. */
  level?: number
  /** How the means' replicates are computed (bootstrapMeanIntervals): on this thread unless a caller gives another way. */
  resampler?: MeanResampler
}

/** Quantile with linear interpolation between order statistics (type 7 of Hyndman & Fan, numpy's default). */
function quantileOfSorted(sorted: readonly number[], p: number): number {
  const position = (sorted.length - 1) * p
  const below = Math.floor(position)
  const above = Math.min(below + 1, sorted.length - 1)
  return sorted[below]! + (position - below) * (sorted[above]! - sorted[below]!)
}

/**
 * Percentile bootstrap interval of `statistic` (Efron & Tibshirani 1993, ch. 13): `resamples` draws of n items
 * with replacement from mulberry32(seed), quantiles (1 ± level)/2 interpolated as numpy.percentile. Callers drop
 * nulls first. n = 0 gives null; n = 1 the degenerate interval.
 */
export function bootstrapInterval(
  values: readonly number[],
  statistic: (sample: readonly number[]) => number,
  options: BootstrapOptions,
): Interval | null {
  const level = checkedLevel(options)
  const n = values.length
  if (n === 0) return null
  if (n === 1) {
    const only = statistic(values)
    return { low: only, high: only, method: 'bootstrap-percentile' }
  }
  return percentileInterval(bootstrapReplicates(values, statistic, options), level)
}

/** `statistic` on each of `resamples` draws of n items with replacement from mulberry32(seed). */
export function bootstrapReplicates(
  values: readonly number[],
  statistic: (sample: readonly number[]) => number,
  options: BootstrapOptions,
): number[] {
  const n = values.length
  const random = new Mulberry32(options.seed)
  const sample = new Array<number>(n)
  const replicates = new Array<number>(options.resamples)
  for (let r = 0; r < options.resamples; r++) {
    for (let i = 0; i < n; i++) sample[i] = values[Math.floor(random.next() * n)]!
    replicates[r] = statistic(sample)
  }
  return replicates
}

/** The options' level, after checking it and the resample count. */
function checkedLevel(options: BootstrapOptions): number {
  const level = options.level ?? DEFAULT_LEVEL
  checkLevel(level)
  if (!Number.isInteger(options.resamples) || options.resamples < 1) {
    throw new RangeError(`bootstrapInterval: expected a whole number of resamples >= 1, got ${options.resamples}`)
  }
  return level
}

/** The interval between the (1-level)/2 and (1+level)/2 quantiles of the replicates (sorted in place), or at `adjusted` ones. */
function percentileInterval(replicates: number[], level: number, adjusted = (p: number) => p): Interval {
  replicates.sort((a, b) => a - b)
  return {
    low: quantileOfSorted(replicates, adjusted((1 - level) / 2)),
    high: quantileOfSorted(replicates, adjusted((1 + level) / 2)),
    method: 'bootstrap-percentile',
  }
}

/**
 * The bias-corrected and accelerated (BCa, Efron 1987; scipy.stats.bootstrap's default) interval of a mean from
 * its replicates, widened about the mean by sqrt(n / (n - 1)) · t_{n-1} / z for small n (the bootstrap's spread
 * is the n-divisor one and its tails normal), kept within the values' range. The plain percentile interval covers
 * under 93% on 13 values and on skewed ones (docs/statistics.md).
 */
export function bcaMeanInterval(replicates: number[], values: readonly number[], level: number): Interval {
  const n = values.length
  let [sum, least, most] = [0, Infinity, -Infinity]
  for (const value of values) [sum, least, most] = [sum + value, Math.min(least, value), Math.max(most, value)]
  const mean = sum / n
  if (least === most) return { low: mean, high: mean, method: 'bootstrap-percentile' }
  let [below, squares, cubes] = [0, 0, 0]
  for (const replicate of replicates) below += replicate < mean ? 1 : replicate === mean ? 0.5 : 0
  for (const value of values) [squares, cubes] = [squares + (value - mean) ** 2, cubes + (value - mean) ** 3]
  const bias = normalQuantile(Math.min(Math.max(below / replicates.length, 0.5 / replicates.length), 1 - 0.5 / replicates.length))
  const acceleration = cubes / (6 * squares ** 1.5)
  const corrected = (p: number) => {
    const z = bias + normalQuantile(p)
    return normalCdf(bias + z / (1 - acceleration * z))
  }
  const { low, high } = percentileInterval(replicates, level, corrected)
  const p = (1 + level) / 2
  const factor = (Math.sqrt(n / (n - 1)) * studentQuantile(p, n - 1)) / normalQuantile(p)
  return {
    low: Math.max(least, mean - (mean - low) * factor),
    high: Math.min(most, mean + (high - mean) * factor),
    method: 'bootstrap-percentile',
  }
}

/**
 * The interval of the mean (bcaMeanInterval) from the same draws as
 * bootstrapInterval(values, mean), each resample summed in order and divided by n, without building the resamples
 * (docs/scaling.md).
 */
export function bootstrapMeanInterval(values: readonly number[], options: BootstrapOptions): Interval | null {
  return bootstrapMeanIntervals([values], options)[0]!
}

/**
 * bootstrapMeanInterval of each list, to the bit. Draws depend only on the seed and n, so lists of equal length
 * share one stream of draws (mean-resamples.ts), on two threads for millions of draws (parallel-resamples.ts).
 */
export function bootstrapMeanIntervals(lists: readonly (readonly number[])[], options: BootstrapOptions): (Interval | null)[] {
  const level = checkedLevel(options)
  const intervals: (Interval | null)[] = lists.map((values) =>
    values.length === 0
      ? null
      : values.length === 1
        ? { low: values[0]!, high: values[0]!, method: 'bootstrap-percentile' }
        : null,
  )
  const byLength = new Map<number, number[]>()
  lists.forEach((values, i) => {
    if (values.length < 2) return
    // Every resample of a constant list sums the same values: each replicate is the one mean, and so are both
    // bounds, to the bit, without a draw (a run equal to its baseline: every paired difference is 0).
    if (values.every((value) => value === values[0])) {
      intervals[i] = bcaMeanInterval([], values, level)
      return
    }
    byLength.set(values.length, [...(byLength.get(values.length) ?? []), i])
  })
  const groups = [...byLength]
  const replicates = (options.resampler ?? serialMeanResampler)(
    groups.map(([n, members]) => ({ n, columns: members.map((i) => Float64Array.from(lists[i]!)) })),
    options.seed,
    options.resamples,
  )
  groups.forEach(([, members], g) =>
    members.forEach(
      (i, m) =>
        (intervals[i] = bcaMeanInterval(
          Array.from(replicates[g]!.subarray(m * options.resamples, (m + 1) * options.resamples)),
          lists[i]!,
          level,
        )),
    ),
  )
  return intervals
}
