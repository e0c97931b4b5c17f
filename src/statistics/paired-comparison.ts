import { z } from 'zod'
import { exactMcNemar } from './exact-mcnemar.ts'
import { IntervalSchema } from '../contract/interval-schema.ts'
import { pairedBootstrapDeltaInterval } from './paired-bootstrap-delta-interval.ts'
import { pairedPermutationTest } from './paired-permutation-test.ts'
import { meanOrNull, round4 } from './descriptive.ts'
import type { MeanResampler } from './mean-resamples.ts'
import { inScope, type PairedMetric, type ScoredQuestion } from '../contract/metrics/metric.ts'

/**
 * Run B against run A on one metric over the questions both measured: means, difference, its interval, the
 * paired p-value. `worse`: a significant change in the metric's bad direction at alpha.
 */
export const PairedComparisonSchema = z.object({
  test: z.enum(['mcnemar-exact', 'paired-permutation']),
  /** Questions in the metric's scope present in both runs with a value in both. */
  pairs: z.number().int(),
  /** Means over those questions (so they may differ from a summary that counts questions only one run has). */
  a: z.number().nullable(),
  b: z.number().nullable(),
  /** b - a. */
  delta: z.number().nullable(),
  /** 95% paired percentile bootstrap interval of b - a. */
  deltaInterval: IntervalSchema.nullable(),
  /** Two-sided p-value of the paired test; not rounded (a small p would round to 0). */
  pValue: z.number().nullable(),
  /** Binary metrics: questions that went the metric's bad way (hit -> miss) and its good way (miss -> hit). */
  discordant: z.object({ worse: z.number().int(), better: z.number().int() }).nullable(),
  verdict: z.enum(['worse', 'better', 'no-difference']).nullable(),
  /** Why there is no test (no question with a value in both runs). */
  reason: z.string().nullable(),
})
export type PairedComparison = z.infer<typeof PairedComparisonSchema>

export interface PairedOptions {
  resamples: number
  seed: number
  /** How the bootstrap interval's replicates are computed (bootstrap-interval.ts); on this thread when absent. */
  resampler?: MeanResampler
  /** Significance level of `verdict`. */
  alpha: number
}

/** Why a comparison has no test. */
export const NO_PAIRS_REASON = 'no question has a value in both runs'

/**
 * Compares `metric` between runs A and B (pure). Pairs: questions in the metric's scope in both runs with a value
 * in both, in id order so the seeded resampling ignores file order. Binary values take exact McNemar, continuous
 * ones the sign-flip permutation test; both the paired bootstrap interval. No pairs: all null, with the reason.
 */
export function pairedComparison(
  a: readonly ScoredQuestion[],
  b: readonly ScoredQuestion[],
  metric: PairedMetric,
  options: PairedOptions,
): PairedComparison {
  const inB = new Map(b.map((q) => [q.id, q]))
  const pairs = a
    .filter((q) => inScope(metric.scope, q))
    .flatMap((q) => {
      const other = inB.get(q.id)
      const valueA = metric.value(q)
      const valueB = other === undefined ? null : metric.value(other)
      return valueA === null || valueB === null ? [] : [{ id: q.id, a: valueA, b: valueB }]
    })
    .sort((x, y) => (x.id < y.id ? -1 : x.id > y.id ? 1 : 0))
  if (pairs.length === 0) {
    return {
      test: metric.test,
      pairs: 0,
      a: null,
      b: null,
      delta: null,
      deltaInterval: null,
      pValue: null,
      discordant: null,
      verdict: null,
      reason: NO_PAIRS_REASON,
    }
  }
  const valuesA = pairs.map((p) => p.a)
  const valuesB = pairs.map((p) => p.b)
  const meanA = meanOrNull(valuesA)!
  const meanB = meanOrNull(valuesB)!
  let discordant: PairedComparison['discordant'] = null
  let pValue: number
  // A 0/1 metric averaged over trials has fractions: the permutation test's.
  const test =
    metric.test === 'mcnemar-exact' && pairs.some((p) => p.a % 1 !== 0 || p.b % 1 !== 0) ? 'paired-permutation' : metric.test
  if (test === 'mcnemar-exact') {
    const down = pairs.filter((p) => p.a > p.b).length
    const up = pairs.filter((p) => p.a < p.b).length
    discordant = metric.higherIsBetter ? { worse: down, better: up } : { worse: up, better: down }
    pValue = exactMcNemar(down, up)
  } else {
    pValue = pairedPermutationTest(valuesA, valuesB, options)
  }
  const interval = pairedBootstrapDeltaInterval(valuesA, valuesB, options)
  const change = meanB - meanA
  const worse = metric.higherIsBetter ? change < 0 : change > 0
  return {
    test,
    pairs: pairs.length,
    a: round4(meanA),
    b: round4(meanB),
    delta: round4(change),
    deltaInterval: interval && { low: round4(interval.low), high: round4(interval.high), method: interval.method },
    pValue,
    discordant,
    verdict: pValue < options.alpha && change !== 0 ? (worse ? 'worse' : 'better') : 'no-difference',
    reason: null,
  }
}
