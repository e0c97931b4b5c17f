import { isRelevant } from '../relevance'

/**
 * P_k: (relevant documents among the top k retrieved) / k.
 * Edge cases: the divisor is always k, so a run shorter than k is penalised as if padded with
 * non-relevant documents; 0 when nothing relevant is retrieved.
 * @param rankedRels rel of each retrieved document in rank order (-1 when unjudged)
 */
export function precisionAt(rankedRels: readonly number[], k: number): number {
  let found = 0
  const cut = Math.min(k, rankedRels.length)
  for (let i = 0; i < cut; i++) if (isRelevant(rankedRels[i]!)) found++
  return found / k
}
