/**
 * Cohen's kappa between two raters over the same items: (po - pe) / (1 - pe), where po is the observed
 * agreement and pe the agreement expected by chance from each rater's label frequencies. null when
 * there are no items, or when pe = 1 (both raters used one and the same label throughout: agreement
 * is then total but says nothing beyond chance, and kappa is undefined).
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
