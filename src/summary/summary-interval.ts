import { bootstrapMeanIntervals } from '../statistics/bootstrap-interval.ts'
import { STATISTICS_SEED } from '../statistics/defaults.ts'
import type { MeanResampler } from '../statistics/mean-resamples.ts'
import type { Interval } from '../contract/interval-schema.ts'
import { wilsonInterval } from '../statistics/wilson-interval.ts'
import { round4 } from '../statistics/descriptive.ts'

/** A summary metric's per-question values, under its path in the summary. */
export interface IntervalRequest {
  path: string
  values: readonly number[]
  kind: 'proportion' | 'mean'
}

/**
 * The 95% intervals of summary metrics from their per-question values (docs/statistics.md), by path in
 * the order asked: a proportion of yes/no outcomes (values 1 and 0: recall hits, refusals) takes the
 * Wilson interval; a mean of continuous values (MRR, nDCG@10, faithfulness...) the percentile bootstrap
 * over questions, seeded (STATISTICS_SEED) so the same values always give the same interval (the means
 * over equally many questions share their draws: bootstrapMeanIntervals). Bounds rounded to 4 decimals,
 * as every number in the reports. A metric without values has no interval. `resampler` computes the
 * bootstrap's replicates (the same to the bit however it does: on this thread by default).
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
  const ofMean = new Map(means.map((request, i) => [request, bootstrapped[i]!]))
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
