import { bootstrapMeanInterval, type BootstrapOptions } from './bootstrap-interval.ts'
import type { Interval } from '../contract/interval-schema.ts'
import { pairedDifferences } from './paired-differences.ts'

/**
 * Percentile bootstrap interval of mean(b) - mean(a) over pairs (a[i], b[i] the same question), i.e. over the
 * differences b[i] - a[i]; seeded like `bootstrapInterval`. No pairs gives null; unequal lengths throw.
 */
export function pairedBootstrapDeltaInterval(
  a: readonly number[],
  b: readonly number[],
  options: BootstrapOptions,
): Interval | null {
  return bootstrapMeanInterval(pairedDifferences(a, b), options)
}
