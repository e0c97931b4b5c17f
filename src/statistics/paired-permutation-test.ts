import { mulberry32 } from './seeded-random.ts'
import { pairedDifferences } from './paired-differences.ts'

export interface PermutationOptions {
  /** Random sign flips drawn when exact enumeration would take more (the suite's default is 2,000). */
  resamples: number
  /** Seed of the sign flips (mulberry32). */
  seed: number
}

/**
 * Two-sided paired permutation (sign-flip) test of mean(b) - mean(a) = 0. Under no difference each
 * per-item difference d = b - a is as likely to have the opposite sign, so the p-value is the share of
 * sign assignments whose |sum of ±d| is at least the observed |sum of d| (the sum orders assignments as
 * the mean does).
 * Zero differences are dropped first (their sign changes no sum); n counts the others.
 * - When 2^n <= resamples, all 2^n assignments are enumerated and p is that exact share.
 * - Otherwise `resamples` random assignments are drawn from mulberry32(seed) and
 *   p = (count + 1) / (resamples + 1), counting the observed assignment once (Phipson & Smyth 2010),
 *   so p is never 0.
 * Ties are compared with a relative tolerance of 1e-12, so float rounding of equal sums counts them.
 * No pairs, or all differences 0, give p = 1. Lists of different lengths throw.
 */
export function pairedPermutationTest(a: readonly number[], b: readonly number[], options: PermutationOptions): number {
  if (!Number.isInteger(options.resamples) || options.resamples < 1) {
    throw new RangeError(`pairedPermutationTest: expected a whole number of resamples >= 1, got ${options.resamples}`)
  }
  const differences = pairedDifferences(a, b).filter((d) => d !== 0)
  const n = differences.length
  if (n === 0) return 1
  const observed = Math.abs(differences.reduce((sum, d) => sum + d, 0))
  const scale = differences.reduce((sum, d) => sum + Math.abs(d), 0)
  const threshold = observed - 1e-12 * scale
  if (n < 31 && 2 ** n <= options.resamples) {
    let extreme = 0
    for (let signs = 0; signs < 2 ** n; signs++) {
      let sum = 0
      for (let i = 0; i < n; i++) sum += signs & (1 << i) ? -differences[i]! : differences[i]!
      if (Math.abs(sum) >= threshold) extreme++
    }
    return extreme / 2 ** n
  }
  const random = mulberry32(options.seed)
  let extreme = 0
  for (let r = 0; r < options.resamples; r++) {
    let sum = 0
    for (const d of differences) sum += random() < 0.5 ? -d : d
    if (Math.abs(sum) >= threshold) extreme++
  }
  return (extreme + 1) / (options.resamples + 1)
}
