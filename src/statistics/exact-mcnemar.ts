/**
 * Exact McNemar (statsmodels' `mcnemar(table, exact=True)`): with b, c the discordant counts and
 * X ~ Binomial(b + c, 1/2), p = min(1, 2 · P(X <= min(b, c))); b + c = 0 gives 1. Summed in log space, so large
 * b + c neither overflows nor loses precision. Counts must be whole numbers >= 0.
 */
export function exactMcNemar(b: number, c: number): number {
  if (!Number.isInteger(b) || !Number.isInteger(c) || b < 0 || c < 0) {
    throw new RangeError(`exactMcNemar: expected whole discordant counts >= 0, got b = ${b}, c = ${c}`)
  }
  const n = b + c
  if (n === 0) return 1
  const m = Math.min(b, c)
  // log P(X = k) for k = 0..m, by P(k) = P(k - 1) · (n - k + 1) / k from P(0) = 2^-n.
  const logTerms = new Array<number>(m + 1)
  logTerms[0] = -n * Math.LN2
  for (let k = 1; k <= m; k++) logTerms[k] = logTerms[k - 1]! + Math.log(n - k + 1) - Math.log(k)
  // Terms rise up to k = m <= n/2, so the last one is the largest.
  const largest = logTerms[m]!
  let scaled = 0
  for (const logTerm of logTerms) scaled += Math.exp(logTerm - largest)
  return Math.min(1, 2 * Math.exp(largest + Math.log(scaled)))
}
