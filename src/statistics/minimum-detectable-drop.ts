import { normalQuantile } from './normal-quantile.ts'

export interface DetectableDropOptions {
  /** Two-sided significance level of the paired test; 0.05 when absent. */
  alpha?: number
  /** Probability of detecting a drop of the returned size; 0.8 when absent, at least 0.5. */
  power?: number
}

/**
 * The smallest drop in a per-question binary rate (a recall hit) that the paired McNemar test detects
 * with probability `power` at two-sided level `alpha`, when the same n questions are run before and after.
 *
 * Model: the drop comes only from questions flipping hit -> miss, each with probability δ (the drop), and
 * none flips back. Connor's normal-approximation sample size for McNemar's test (Biometrics 43, 1987),
 *   n = (z_{1-α/2}·sqrt(ψ) + z_{power}·sqrt(ψ - δ²))² / δ²  with discordant share ψ = δ,
 * reduces to sqrt(n·δ) = z_{1-α/2} + z_{power}·sqrt(1 - δ). With s = sqrt(1 - δ) that is a quadratic,
 *   (n + z_p²)·s² + 2·z_a·z_p·s + (z_a² - n) = 0,  s = (sqrt(n·(n - z_a² + z_p²)) - z_a·z_p) / (n + z_p²),
 * so δ = 1 - s². One-way flips are the best case for detection: flips in both directions (noise) need a
 * larger drop, so this is a floor. Below it, no regression of recall can be told from chance on n questions.
 * At power 0.5 it is exactly z²/n (n = 100, α = 0.05: 0.0384).
 *
 * Returns null when even the largest possible drop, the baseline rate itself, is not detectable (few
 * questions, or a low baseline). n must be a whole number >= 1, the rate within [0, 1], alpha within (0, 1),
 * power within [0.5, 1).
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
