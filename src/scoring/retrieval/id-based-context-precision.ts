/**
 * RAGAS's IDBasedContextPrecision (ragas.metrics, _context_precision.py; docs "ID Based Context
 * Precision"): the share of the distinct retrieved context ids that are reference ids,
 *   |set(retrieved) ∩ set(reference)| / |set(retrieved)|.
 * RAGAS deduplicates the retrieved ids before counting, so three chunks of one relevant id count once.
 * No retrieved ids gives null (RAGAS returns NaN); retrieved ids with no reference ids (a question with
 * nothing to find) give 0, as in RAGAS.
 */
export function idBasedContextPrecision(retrievedIds: readonly string[], referenceIds: readonly string[]): number | null {
  const retrieved = new Set(retrievedIds)
  if (retrieved.size === 0) return null
  const reference = new Set(referenceIds)
  let relevant = 0
  for (const id of retrieved) if (reference.has(id)) relevant++
  return relevant / retrieved.size
}
