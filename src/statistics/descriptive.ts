/** Arithmetic mean, or null for an empty list (a mean of nothing is not 0). */
export function meanOrNull(values: readonly number[]): number | null {
  if (values.length === 0) return null
  let sum = 0
  for (const value of values) sum += value
  return sum / values.length
}

/** Nearest-rank percentile (p in 0..100): the smallest value with at least p% of values at or below it; null if empty. */
export function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null
  const sorted = [...values].sort((a, b) => a - b)
  const rank = Math.max(1, Math.ceil((p / 100) * sorted.length))
  return sorted[rank - 1]!
}

/** A value clipped to [0, 1], the range of every rate. */
export function clipToRate(value: number): number {
  return Math.min(1, Math.max(0, value))
}

/** Rounds to 4 decimals, the precision of every number in the reports. */
export function round4(value: number): number {
  return Math.round(value * 1e4) / 1e4
}

/** Sample standard deviation, sqrt(sum (x - mean)^2 / (n - 1)); null for fewer than two values (no spread to estimate). */
export function sampleStandardDeviation(values: readonly number[]): number | null {
  const mean = meanOrNull(values)
  if (mean === null || values.length < 2) return null
  let squares = 0
  for (const value of values) squares += (value - mean) ** 2
  return Math.sqrt(squares / (values.length - 1))
}
