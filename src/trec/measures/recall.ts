import { isRelevant } from '../relevance'

/**
 * recall_k: relevant among the top k retrieved / the query's qrels documents with rel >= 1 (`relevantCount`).
 * 0 without relevant judgements; a short run is cut at its end. `rankedRels`: rel per retrieved doc (-1 unjudged).
 */
export function recallAt(rankedRels: readonly number[], relevantCount: number, k: number): number {
  if (relevantCount === 0) return 0
  let found = 0
  const cut = Math.min(k, rankedRels.length)
  for (let i = 0; i < cut; i++) if (isRelevant(rankedRels[i]!)) found++
  return found / relevantCount
}
