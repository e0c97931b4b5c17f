import { bcaMeanInterval, bootstrapInterval, bootstrapReplicates, type BootstrapOptions } from '../bootstrap-interval.ts'
import { DEFAULT_LEVEL } from '../interval.ts'
import { meanOrNull } from '../descriptive.ts'

const mean = (sample: readonly number[]) => meanOrNull(sample)!

/** bootstrapMeanInterval by its definition: the generic resampling loop's replicates of the mean, then the BCa interval. */
export function referenceMeanInterval(values: readonly number[], options: BootstrapOptions) {
  if (values.length < 2) return bootstrapInterval(values, mean, options)
  return bcaMeanInterval(bootstrapReplicates(values, mean, options), values, options.level ?? DEFAULT_LEVEL)
}
