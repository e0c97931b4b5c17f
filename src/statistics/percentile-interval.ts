import { checkLevel, DEFAULT_LEVEL } from './interval.ts'

/** An interval of a percentile; a bound is null when too few values give it. */
export interface PercentileInterval {
  low: number | null
  high: number | null
}

/**
 * Distribution-free interval of the population's p-th percentile from order statistics (Hahn & Meeker 1991, 5.2):
 * x_(l) lies at or below it with probability P(Binomial(n, p/100) >= l), so the low bound is the largest x_(l) with
 * that at least (1 + level)/2 and the high one the smallest x_(u) with P(Binomial(n, p/100) < u) at least as much;
 * none when no order statistic reaches it (a p95's high bound needs 72 values). Covers at least `level` whatever the
 * distribution; null for no values.
 */
export function percentileInterval(
  values: readonly number[],
  p: number,
  level: number = DEFAULT_LEVEL,
): PercentileInterval | null {
  checkLevel(level)
  const n = values.length
  if (n === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const q = p / 100
  const side = (1 + level) / 2
  let logChoose = 0
  let below = 0
  let low: number | null = null
  // k = 0..n: P(Binomial(n, q) >= k + 1) = 1 - P(<= k) decides x_(k+1) as the low bound, P(<= k) >= side the high one.
  for (let k = 0; k < n; k++) {
    if (k > 0) logChoose += Math.log((n - k + 1) / k)
    below += q <= 0 ? (k === 0 ? 1 : 0) : q >= 1 ? 0 : Math.exp(logChoose + k * Math.log(q) + (n - k) * Math.log(1 - q))
    if (1 - below >= side) low = sorted[k]!
    if (below >= side) return { low, high: sorted[k]! }
  }
  return { low, high: null }
}
