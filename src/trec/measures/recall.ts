import { isRelevant } from '../relevance'

/**
 * recall_k: (relevant documents among the top k retrieved) / (documents of the query judged rel >= 1
 * in the qrels, retrieved or not).
 * Edge cases: 0 when the query has no relevant judgement; a run shorter than k is simply cut at
 * its end.
 * @param rankedRels rel of each retrieved document in rank order (-1 when unjudged)
 * @param relevantCount number of qrels documents of the query with rel >= 1
 */
export function recallAt(rankedRels: readonly number[], relevantCount: number, k: number): number {
  if (relevantCount === 0) return 0
  let found = 0
  const cut = Math.min(k, rankedRels.length)
  for (let i = 0; i < cut; i++) if (isRelevant(rankedRels[i]!)) found++
  return found / relevantCount
}
