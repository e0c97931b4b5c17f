/**
 * RAGAS's IDBasedContextRecall: |set(reference) ∩ set(retrieved)| / |set(reference)| (repeats count once).
 * No reference ids gives null (RAGAS: NaN); no retrieved ids gives 0.
 */
export function idBasedContextRecall(retrievedIds: readonly string[], referenceIds: readonly string[]): number | null {
  const reference = new Set(referenceIds)
  if (reference.size === 0) return null
  const retrieved = new Set(retrievedIds)
  let found = 0
  for (const id of reference) if (retrieved.has(id)) found++
  return found / reference.size
}
