/**
 * DCG over the first `k` gains in rank order: sum of gain[i] / log2(rank + 1), ranks from 1. Non-positive
 * gains add nothing (trec_eval counts only rel > 0).
 */
export function discountedCumulativeGain(gains: readonly number[], k: number): number {
  let dcg = 0
  const cut = Math.min(k, gains.length)
  for (let i = 0; i < cut; i++) {
    const gain = gains[i]!
    if (gain > 0) dcg += gain / Math.log2(i + 2)
  }
  return dcg
}

/** nDCG at `k`: DCG of the ranked gains over DCG of the ideal gains (sorted descending); 0 when the ideal is 0. */
export function normalisedDcg(rankedGains: readonly number[], idealGains: readonly number[], k: number): number {
  const ideal = discountedCumulativeGain(
    [...idealGains].sort((a, b) => b - a),
    k,
  )
  if (ideal === 0) return 0
  return discountedCumulativeGain(rankedGains, k) / ideal
}
