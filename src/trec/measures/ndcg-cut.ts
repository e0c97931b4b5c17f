import { normalisedDcg } from '../../scoring/retrieval/dcg'

/**
 * ndcg_cut_k: DCG@k / IDCG@k with linear gains (gain = the raw rel grade) and discount
 * log2(rank + 1). DCG counts only retrieved documents with rel > 0 (unjudged -1 and rel 0 add
 * nothing). IDCG comes from the qrels alone: the query's relevant grades sorted descending, cut at k.
 * Edge cases: 0 when IDCG is 0 (no relevant judgement); a run shorter than k is cut at its end.
 * @param rankedRels rel of each retrieved document in rank order (-1 when unjudged)
 * @param relevantGains rel of every qrels document of the query with rel >= 1 (any order)
 */
export function ndcgCut(rankedRels: readonly number[], relevantGains: readonly number[], k: number): number {
  return normalisedDcg(rankedRels, relevantGains, k)
}
