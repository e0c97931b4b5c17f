import type { Interval } from '../contract/interval-schema.ts'
import { Mulberry32 } from '../statistics/seeded-random.ts'

/**
 * Seeded percentile bootstrap 95% interval of Cohen's kappa (nearest rank): kappa has no closed-form interval
 * that holds at 30 items. Resamples with kappa undefined are left out; null when all are, or with no pairs.
 */
export function kappaInterval<L extends string>(
  pairs: readonly (readonly [L, L])[],
  resamples: number,
  seed: number,
): Interval | null {
  const n = pairs.length
  if (n === 0) return null
  // Labels as small integers, so a resample is counted in flat arrays (thousands of resamples per report).
  const codes = new Map<L, number>()
  const code = (label: L) => codes.get(label) ?? codes.set(label, codes.size).get(label)!
  const first = pairs.map(([a]) => code(a))
  const second = pairs.map(([, b]) => code(b))
  const labels = codes.size
  const random = new Mulberry32(seed)
  const kappas: number[] = []
  const firstCounts = new Array<number>(labels)
  const secondCounts = new Array<number>(labels)
  for (let r = 0; r < resamples; r++) {
    firstCounts.fill(0)
    secondCounts.fill(0)
    let agreed = 0
    for (let i = 0; i < n; i++) {
      const pick = Math.floor(random.next() * n)
      firstCounts[first[pick]!]!++
      secondCounts[second[pick]!]!++
      if (first[pick] === second[pick]) agreed++
    }
    let expected = 0
    for (let l = 0; l < labels; l++) expected += (firstCounts[l]! / n) * (secondCounts[l]! / n)
    if (expected === 1) continue
    kappas.push((agreed / n - expected) / (1 - expected))
  }
  if (kappas.length === 0) return null
  kappas.sort((a, b) => a - b)
  const at = (p: number) => kappas[Math.max(1, Math.ceil(p * kappas.length)) - 1]!
  return { low: at(0.025), high: at(0.975), method: 'bootstrap-percentile' }
}
