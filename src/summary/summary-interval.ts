import { bootstrapMeanIntervals } from '../statistics/bootstrap-interval.ts'
import { STATISTICS_SEED } from '../statistics/defaults.ts'
import type { MeanResampler } from '../statistics/mean-resamples.ts'
import type { Interval } from '../contract/interval-schema.ts'
import { wilsonInterval } from '../statistics/wilson-interval.ts'
import { boundedMeanInterval } from '../statistics/bounded-mean-interval.ts'
import { round4 } from '../statistics/descriptive.ts'

/** A summary metric's per-question values, under its path in the summary. */
export interface IntervalRequest {
  path: string
  values: readonly number[]
  kind: 'proportion' | 'mean'
}

/**
 * 95% intervals of summary metrics (docs/statistics.md): Wilson for 0/1 values, else the seeded percentile bootstrap
 * (identical to the bit wherever `resampler` computes it), widened at the bounds by boundedMeanInterval. A metric without values has none.
 */
export function summaryIntervals(
  requests: readonly IntervalRequest[],
  resamples: number,
  resampler?: MeanResampler,
): Record<string, Interval> {
  const means = requests.filter((request) => request.kind === 'mean')
  const bootstrapped = bootstrapMeanIntervals(
    means.map((request) => request.values),
    { resamples, seed: STATISTICS_SEED, ...(resampler === undefined ? {} : { resampler }) },
  )
  const ofMean = new Map(
    means.map((request, i) => [request, bootstrapped[i] && boundedMeanInterval(bootstrapped[i], request.values)]),
  )
  const intervals: Record<string, Interval> = {}
  for (const request of requests) {
    const interval =
      request.kind === 'proportion'
        ? wilsonInterval(request.values.filter((v) => v === 1).length, request.values.length)
        : ofMean.get(request)!
    if (interval) intervals[request.path] = { low: round4(interval.low), high: round4(interval.high), method: interval.method }
  }
  return intervals
}
