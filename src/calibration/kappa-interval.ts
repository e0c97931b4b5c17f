import type { Interval } from '../contract/interval-schema.ts'
import { Mulberry32 } from '../statistics/seeded-random.ts'
import { cohenKappa } from './cohen-kappa.ts'

/**
 * Seeded percentile bootstrap 95% interval of Cohen's kappa: the labelled answers resampled with
 * replacement `resamples` times, kappa of each resample, the 2.5th and 97.5th percentiles (nearest rank).
 * Resamples where kappa is undefined (both raters used one label) are left out; null when all are, or
 * with no pairs. Kappa has no closed-form interval that holds at 30 items, hence the bootstrap.
 */
export function kappaInterval<L extends string>(
  pairs: readonly (readonly [L, L])[],
  resamples: number,
  seed: number,
): Interval | null {
  if (pairs.length === 0) return null
  const random = new Mulberry32(seed)
  const kappas: number[] = []
  for (let r = 0; r < resamples; r++) {
    const resample = Array.from({ length: pairs.length }, () => pairs[Math.floor(random.next() * pairs.length)]!)
    const kappa = cohenKappa(resample)
    if (kappa !== null) kappas.push(kappa)
  }
  if (kappas.length === 0) return null
  kappas.sort((a, b) => a - b)
  const at = (p: number) => kappas[Math.max(1, Math.ceil(p * kappas.length)) - 1]!
  return { low: at(0.025), high: at(0.975), method: 'bootstrap-percentile' }
}
