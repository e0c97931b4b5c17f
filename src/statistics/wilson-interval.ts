import type { Interval } from '../contract/interval-schema.ts'
import { checkLevel, DEFAULT_LEVEL } from './interval.ts'
import { normalQuantile } from './normal-quantile.ts'

/**
 * Wilson score interval for a proportion of `successes` out of `n` (Wilson 1927; method 3 of Newcombe,
 * Statistics in Medicine 17, 1998), without continuity correction:
 *   centre = (p + z²/2n) / (1 + z²/n),  half-width = z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n),
 * with p = successes/n and z the two-sided normal quantile of `level`. Unlike p ± z·sqrt(p(1-p)/n) it
 * never leaves [0, 1] and is not empty at p = 0 or 1 (0/20 gives 0 to 0.161), which is why the suite uses
 * it for recall and refusal rates. n = 0 gives null (no interval for no data); counts that are not whole
 * numbers with 0 <= successes <= n throw.
 */
export function wilsonInterval(successes: number, n: number, level = DEFAULT_LEVEL): Interval | null {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(successes) || successes < 0 || successes > n) {
    throw new RangeError(`wilsonInterval: expected whole counts with 0 <= successes <= n, got ${successes} of ${n}`)
  }
  checkLevel(level)
  if (n === 0) return null
  const z = normalQuantile(1 - (1 - level) / 2)
  const p = successes / n
  const z2 = z * z
  const denominator = 1 + z2 / n
  const centre = (p + z2 / (2 * n)) / denominator
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator
  // The bounds are exactly 0 and 1 at p = 0 and 1; clamp the rounding error there.
  return {
    low: successes === 0 ? 0 : Math.max(0, centre - half),
    high: successes === n ? 1 : Math.min(1, centre + half),
    method: 'wilson',
  }
}
