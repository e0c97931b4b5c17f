import { wilsonInterval } from './wilson-interval.ts'

/** Student's t at 0.975 for 1..30 degrees of freedom (beyond, Cornish-Fisher's first term is within 0.003). */
const T_975 = [
  12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101,
  2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
]

/**
 * The mean of one question's values over its trials with a 95% interval across them: Wilson for 0/1 values, else
 * mean ± t(0.975, n - 1) · s / sqrt(n) (one value: the value itself, no width). null without values.
 */
export function trialInterval(values: readonly number[]): { mean: number; low: number; high: number } | null {
  const n = values.length
  if (n === 0) return null
  const mean = values.reduce((sum, v) => sum + v, 0) / n
  if (values.every((v) => v === 0 || v === 1)) {
    const wilson = wilsonInterval(values.filter((v) => v === 1).length, n)!
    return { mean, low: wilson.low, high: wilson.high }
  }
  if (n === 1) return { mean, low: mean, high: mean }
  const df = n - 1
  const t = T_975[df - 1] ?? 1.96 + (1.96 ** 3 + 1.96) / (4 * df)
  const s = Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / df)
  const half = (t * s) / Math.sqrt(n)
  return { mean, low: mean - half, high: mean + half }
}
