import { bootstrapMeanInterval } from '../statistics/bootstrap-interval.ts'
import { STATISTICS_SEED } from '../statistics/defaults.ts'
import type { Interval } from '../statistics/interval.ts'
import { wilsonInterval } from '../statistics/wilson-interval.ts'
import { round4 } from '../statistics/descriptive.ts'

/**
 * The 95% interval of a summary metric from its per-question values (docs/statistics.md): a proportion
 * of yes/no outcomes (values 1 and 0: recall hits, refusals) takes the Wilson interval; a mean of
 * continuous values (MRR, nDCG@10, faithfulness...) the percentile bootstrap over questions, seeded
 * (STATISTICS_SEED) so the same values always give the same interval. Bounds rounded to 4 decimals, as
 * every number in the reports. No values: null.
 */
export function summaryInterval(values: readonly number[], kind: 'proportion' | 'mean', resamples: number): Interval | null {
  const interval =
    kind === 'proportion'
      ? wilsonInterval(values.filter((v) => v === 1).length, values.length)
      : bootstrapMeanInterval(values, { resamples, seed: STATISTICS_SEED })
  return interval && { low: round4(interval.low), high: round4(interval.high), method: interval.method }
}
