/**
 * One-sided Fisher exact test that group B's rate is below group A's: with a of nA successes in A and b of nB in B,
 * and the margins fixed, p = P(X <= b) for X hypergeometric (nA + nB items, a + b successes, nB drawn). Summed in
 * log space. Counts must be whole with 0 <= a <= nA, 0 <= b <= nB, nA + nB >= 1. For a rise, swap the groups.
 */
export function fisherLowerTail(a: number, nA: number, b: number, nB: number): number {
  const whole = [a, nA, b, nB].every((x) => Number.isInteger(x) && x >= 0)
  if (!whole || a > nA || b > nB || nA + nB < 1)
    throw new RangeError(`fisherLowerTail: expected whole counts with a <= nA and b <= nB, got ${a}/${nA} and ${b}/${nB}`)
  const successes = a + b
  const logChoose = (n: number, k: number) => logFactorial(n) - logFactorial(k) - logFactorial(n - k)
  const total = logChoose(nA + nB, nB)
  let p = 0
  for (let x = Math.max(0, successes - nA); x <= b; x++)
    p += Math.exp(logChoose(successes, x) + logChoose(nA + nB - successes, nB - x) - total)
  return Math.min(1, p)
}

function logFactorial(n: number): number {
  let sum = 0
  for (let i = 2; i <= n; i++) sum += Math.log(i)
  return sum
}
