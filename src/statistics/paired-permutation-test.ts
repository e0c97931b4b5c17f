import { mulberry32 } from './seeded-random.ts'
import { pairedDifferences } from './paired-differences.ts'

export interface PermutationOptions {
  /** Random sign flips drawn when exact enumeration would take more (the suite's default is 2,000). */
  resamples: number
  /** Seed of the sign flips (mulberry32). */
  seed: number
}

/**
 * Two-sided paired sign-flip test of mean(b) - mean(a) = 0: p is the share of sign assignments of the non-zero
 * differences whose |sum| reaches the observed one (ties within a relative 1e-12). All 2^n when 2^n <= resamples,
 * else `resamples` draws from mulberry32(seed) with p = (count + 1) / (resamples + 1) (Phipson & Smyth 2010),
 * never 0. No pairs or all differences 0 give 1; unequal lengths throw.
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
