import { normalisedDcg } from '../../scoring/retrieval/dcg'

/**
 * ndcg_cut_k: DCG@k / IDCG@k, gain the raw rel, discount log2(rank + 1); DCG counts retrieved rel > 0 only;
 * IDCG from the qrels' relevant grades, descending, cut at k. 0 when IDCG is 0; a short run is cut at its end.
 * `rankedRels`: rel per retrieved doc in rank order (-1 unjudged); `relevantGains`: the query's rels >= 1.
 */
export function ndcgCut(rankedRels: readonly number[], relevantGains: readonly number[], k: number): number {
  return normalisedDcg(rankedRels, relevantGains, k)
}
