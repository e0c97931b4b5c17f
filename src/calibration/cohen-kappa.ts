/**
 * Cohen's kappa: (po - pe) / (1 - pe), po the observed agreement, pe the chance agreement from each rater's label
 * frequencies. null with no items or when pe = 1 (both used one same label: kappa is undefined).
 */
export function cohenKappa<L extends string>(pairs: readonly (readonly [L, L])[]): number | null {
  const n = pairs.length
  if (n === 0) return null
  const labels = new Set(pairs.flatMap(([a, b]) => [a, b]))
  const observed = pairs.filter(([a, b]) => a === b).length / n
  let expected = 0
  for (const label of labels) {
    const first = pairs.filter(([a]) => a === label).length / n
    const second = pairs.filter(([, b]) => b === label).length / n
    expected += first * second
  }
  if (expected === 1) return null
  return (observed - expected) / (1 - expected)
}
