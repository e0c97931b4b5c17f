import { normalisedDcg } from './dcg.ts'

const CUT = 10

/**
 * Chunk-level nDCG@10: gain 1 for each of the top 10 ranked chunks whose document is an answer doc,
 * discounted by 1/log2(rank + 1); divided by the ideal DCG of min(relevantChunkCount, 10) gains of 1,
 * where relevantChunkCount is the number of corpus chunks belonging to answer docs. Several chunks of
 * one answer doc each earn gain. 0 when relevantChunkCount is 0 (a none question).
 */
export function ndcgAt10(rankedDocIds: readonly string[], answerDocIds: readonly string[], relevantChunkCount: number): number {
  const answers = new Set(answerDocIds)
  const gains = rankedDocIds.slice(0, CUT).map((id) => (answers.has(id) ? 1 : 0))
  return normalisedDcg(gains, new Array<number>(Math.min(relevantChunkCount, CUT)).fill(1), CUT)
}

/**
 * Document-level nDCG@10, equal to trec_eval's ndcg_cut.10 on the doc-level run and qrels that
 * `pnpm trec:export` writes: each document counted once, at the rank of its best chunk; binary gains;
 * ideal DCG over the answer docs (cut at 10). 0 when there are no answer docs.
 */
export function docNdcgAt10(rankedDocIds: readonly string[], answerDocIds: readonly string[]): number {
  const answers = new Set(answerDocIds)
  const gains = firstOccurrences(rankedDocIds)
    .slice(0, CUT)
    .map((id) => (answers.has(id) ? 1 : 0))
  return normalisedDcg(gains, new Array<number>(Math.min(answers.size, CUT)).fill(1), CUT)
}

/** Each id once, at its first position (the doc-level ranking of a chunk ranking). */
export function firstOccurrences(ids: readonly string[]): string[] {
  return [...new Set(ids)]
}
