import { bootstrapMeanInterval, type BootstrapOptions } from './bootstrap-interval.ts'
import type { Interval } from '../contract/interval-schema.ts'
import { pairedDifferences } from './paired-differences.ts'

/**
 * Percentile bootstrap interval of mean(b) - mean(a) over paired items (a[i] and b[i] are the same
 * question under configurations A and B): the items are resampled as pairs, i.e. the bootstrap runs over
 * the per-item differences b[i] - a[i]. Seeded and deterministic like `bootstrapInterval` (its mean, without building the
 * resamples). No pairs gives
 * null; lists of different lengths throw.
 */
export function pairedBootstrapDeltaInterval(
  a: readonly number[],
  b: readonly number[],
  options: BootstrapOptions,
): Interval | null {
  return bootstrapMeanInterval(pairedDifferences(a, b), options)
}
