/**
 * RAGAS's IDBasedContextPrecision: |set(retrieved) ∩ set(reference)| / |set(retrieved)| (repeats count once).
 * No retrieved ids gives null (RAGAS: NaN); no reference ids gives 0, as in RAGAS.
 */
export function idBasedContextPrecision(retrievedIds: readonly string[], referenceIds: readonly string[]): number | null {
  const retrieved = new Set(retrievedIds)
  if (retrieved.size === 0) return null
  const reference = new Set(referenceIds)
  let relevant = 0
  for (const id of retrieved) if (reference.has(id)) relevant++
  return relevant / retrieved.size
}
