import { isRelevant } from '../relevance'

/**
 * P_k: relevant among the top k retrieved / k. Always divided by k, so a short run counts as padded with
 * non-relevant documents. `rankedRels`: rel per retrieved doc in rank order (-1 unjudged).
 */
export function precisionAt(rankedRels: readonly number[], k: number): number {
  let found = 0
  const cut = Math.min(k, rankedRels.length)
  for (let i = 0; i < cut; i++) if (isRelevant(rankedRels[i]!)) found++
  return found / k
}
