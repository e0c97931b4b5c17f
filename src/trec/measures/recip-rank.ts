import { isRelevant } from '../relevance'

/**
 * recip_rank: 1 / rank of the first retrieved document with rel >= 1 (ranks start at 1).
 * Edge cases: 0 when no relevant document is retrieved (including queries whose judgements are all
 * rel 0); unjudged documents (rel -1) and rel 0 never count as relevant.
 * @param rankedRels rel of each retrieved document in rank order (-1 when unjudged)
 */
export function reciprocalRank(rankedRels: readonly number[]): number {
  for (let i = 0; i < rankedRels.length; i++) {
    if (isRelevant(rankedRels[i]!)) return 1 / (i + 1)
  }
  return 0
}
