import type { Interval } from '../contract/interval-schema.ts'
import { checkLevel, DEFAULT_LEVEL } from './interval.ts'
import { normalQuantile } from './normal-quantile.ts'

/**
 * Wilson score interval without continuity correction (Newcombe 1998, method 3): centre (p + z²/2n) / (1 + z²/n),
 * half-width z·sqrt(p(1-p)/n + z²/4n²) / (1 + z²/n). Stays in [0, 1] and is not empty at p = 0 or 1. n = 0
 * gives null; counts not whole with 0 <= successes <= n throw.
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
