/**
 * RAGAS's IDBasedContextRecall (ragas.metrics, _context_recall.py; docs "ID Based Context Recall"): the
 * share of the distinct reference context ids found among the retrieved context ids,
 *   |set(reference) ∩ set(retrieved)| / |set(reference)|.
 * Repeats count once on both sides. No reference ids gives null (RAGAS returns NaN: recall of nothing is
 * undefined); no retrieved ids with some reference ids gives 0.
 */
export function idBasedContextRecall(retrievedIds: readonly string[], referenceIds: readonly string[]): number | null {
  const reference = new Set(referenceIds)
  if (reference.size === 0) return null
  const retrieved = new Set(retrievedIds)
  let found = 0
  for (const id of reference) if (retrieved.has(id)) found++
  return found / reference.size
}
