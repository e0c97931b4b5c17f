import { studentQuantile } from './student-quantile.ts'
import { wilsonInterval } from './wilson-interval.ts'

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
  const s = Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (n - 1))
  const half = (studentQuantile(0.975, n - 1) * s) / Math.sqrt(n)
  return { mean, low: mean - half, high: mean + half }
}
