import { isRelevant } from '../relevance'

/**
 * recip_rank: 1 / rank (from 1) of the first retrieved doc with rel >= 1; 0 when none is (rel 0 and unjudged
 * -1 never count). `rankedRels`: rel per retrieved doc in rank order.
 */
export function reciprocalRank(rankedRels: readonly number[]): number {
  for (let i = 0; i < rankedRels.length; i++) {
    if (isRelevant(rankedRels[i]!)) return 1 / (i + 1)
  }
  return 0
}
