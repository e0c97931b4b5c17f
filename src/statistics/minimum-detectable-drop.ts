import { normalQuantile } from './normal-quantile.ts'

export interface DetectableDropOptions {
  /** Two-sided significance level of the paired test; 0.05 when absent. */
  alpha?: number
  /** Probability of detecting a drop of the returned size; 0.8 when absent, at least 0.5. */
  power?: number
}

/**
 * The smallest drop of a per-question binary rate that the paired McNemar test detects with probability `power`
 * at two-sided `alpha` on the same n questions (Connor 1987, one-way flips: a floor; docs/statistics.md,
 * "Minimum detectable drop"). At power 0.5 it is z²/n. null when even losing the whole baseline rate is not
 * detectable. n a whole number >= 1, rate in [0, 1], alpha in (0, 1), power in [0.5, 1).
 */
export function minimumDetectableDrop(n: number, baselineRate: number, options: DetectableDropOptions = {}): number | null {
  const alpha = options.alpha ?? 0.05
  const power = options.power ?? 0.8
  if (!Number.isInteger(n) || n < 1)
    throw new RangeError(`minimumDetectableDrop: expected a whole number of questions >= 1, got ${n}`)
  if (!(baselineRate >= 0 && baselineRate <= 1))
    throw new RangeError(`minimumDetectableDrop: expected a baseline rate within [0, 1], got ${baselineRate}`)
  if (!(alpha > 0 && alpha < 1))
    throw new RangeError(`minimumDetectableDrop: expected alpha strictly between 0 and 1, got ${alpha}`)
  if (!(power >= 0.5 && power < 1)) throw new RangeError(`minimumDetectableDrop: expected power within [0.5, 1), got ${power}`)
  const za = normalQuantile(1 - alpha / 2)
  const zp = normalQuantile(power)
  const discriminant = n * (n - za * za + zp * zp)
  if (discriminant < 0) return null
  const s = (Math.sqrt(discriminant) - za * zp) / (n + zp * zp)
  if (s <= 0) return null
  const drop = 1 - s * s
  return drop <= baselineRate ? drop : null
}
