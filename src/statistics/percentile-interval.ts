import type { Interval } from '../contract/interval-schema.ts'
import { checkLevel, DEFAULT_LEVEL } from './interval.ts'

/**
 * Percentile bootstrap interval of the nearest-rank p-th percentile, computed exactly instead of by resampling: a
 * resample's r-th smallest value is at most x_(j) when at least r of its n draws fall among the j smallest, so
 * P = P(Binomial(n, j/n) >= r). The bounds are the smallest x_(j) with P >= (1 - level)/2 and >= (1 + level)/2.
 * Order-free and seed-free; null for no values.
 */
export function exactPercentileInterval(values: readonly number[], p: number, level: number = DEFAULT_LEVEL): Interval | null {
  checkLevel(level)
  const n = values.length
  if (n === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * n))
  const logFactorial = [0]
  for (let k = 1; k <= n; k++) logFactorial.push(logFactorial[k - 1]! + Math.log(k))
  // P(Binomial(n, j/n) >= rank), summed in log space (n in the thousands underflows the plain product).
  const atMost = (j: number) => {
    if (j >= n) return 1
    let tail = 0
    for (let k = rank; k <= n; k++)
      tail += Math.exp(
        logFactorial[n]! - logFactorial[k]! - logFactorial[n - k]! + k * Math.log(j / n) + (n - k) * Math.log(1 - j / n),
      )
    return tail
  }
  // The distribution function rises with j: a binary search for the first j reaching q.
  const quantile = (q: number) => {
    let low = 1
    let high = n
    while (low < high) {
      const middle = Math.floor((low + high) / 2)
      if (atMost(middle) >= q) high = middle
      else low = middle + 1
    }
    return sorted[low - 1]!
  }
  return { low: quantile((1 - level) / 2), high: quantile((1 + level) / 2), method: 'bootstrap-percentile' }
}
