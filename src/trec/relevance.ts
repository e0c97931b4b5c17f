/** trec_eval's default relevance level (-l1): a judgement with rel >= 1 is relevant. */
export const RELEVANCE_THRESHOLD = 1

/** Relevance of a document absent from the qrels: unjudged, not relevant. */
export const UNJUDGED = -1

export function isRelevant(rel: number): boolean {
  return rel >= RELEVANCE_THRESHOLD
}
