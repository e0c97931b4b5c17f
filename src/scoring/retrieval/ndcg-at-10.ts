import { normalisedDcg } from './dcg.ts'

const CUT = 10

/**
 * Chunk-level nDCG@10 with binary relevance: gain 1 for each of the top 10 ranked chunks whose document
 * is an answer doc, discounted by 1/log2(rank + 1); divided by the ideal DCG of min(relevantChunkCount, 10)
 * gains of 1, where relevantChunkCount is the number of corpus chunks belonging to answer docs. Several
 * chunks of one answer doc each earn gain. 0 when relevantChunkCount is 0 (a none question).
 * `gradedNdcgAt10` is the same with grades as gains; with every answer doc graded 1 both agree.
 */
export function ndcgAt10(rankedDocIds: readonly string[], answerDocIds: readonly string[], relevantChunkCount: number): number {
  const answers = new Set(answerDocIds)
  const gains = rankedDocIds.slice(0, CUT).map((id) => (answers.has(id) ? 1 : 0))
  return normalisedDcg(gains, new Array<number>(Math.min(relevantChunkCount, CUT)).fill(1), CUT)
}

/**
 * Chunk-level nDCG@10 with graded relevance (trec_eval's ndcg_cut with graded qrels, at chunk level):
 * each of the top 10 ranked chunks gains its document's grade (0 for a document not graded), discounted
 * by 1/log2(rank + 1); divided by the ideal DCG, in which every corpus chunk of a graded document carries
 * that document's grade, highest first, cut at 10. 0 when no chunk of the corpus has a grade above 0.
 */
export function gradedNdcgAt10(
  rankedDocIds: readonly string[],
  grades: ReadonlyMap<string, number>,
  chunkCountByDoc: ReadonlyMap<string, number>,
): number {
  const gains = rankedDocIds.slice(0, CUT).map((id) => grades.get(id) ?? 0)
  return normalisedDcg(gains, idealChunkGains(grades, chunkCountByDoc), CUT)
}

/** The best 10 gains the corpus's chunks could give: each relevant chunk at its document's grade, highest first. */
function idealChunkGains(grades: ReadonlyMap<string, number>, chunkCountByDoc: ReadonlyMap<string, number>): number[] {
  const ideal: number[] = []
  const byGrade = [...grades].filter(([, grade]) => grade > 0).sort((a, b) => b[1] - a[1])
  for (const [docId, grade] of byGrade) {
    const chunks = chunkCountByDoc.get(docId) ?? 0
    for (let i = 0; i < chunks && ideal.length < CUT; i++) ideal.push(grade)
  }
  return ideal
}

/**
 * Document-level nDCG@10 with binary relevance, equal to trec_eval's ndcg_cut.10 on the doc-level run and
 * qrels that `pnpm trec:export` writes: each document counted once, at the rank of its best chunk; binary
 * gains; ideal DCG over the answer docs (cut at 10). 0 when there are no answer docs.
 */
export function docNdcgAt10(rankedDocIds: readonly string[], answerDocIds: readonly string[]): number {
  return gradedDocNdcgAt10(rankedDocIds, new Map(answerDocIds.map((id) => [id, 1])))
}

/**
 * Document-level nDCG@10 with graded relevance, trec_eval's ndcg_cut.10 with graded qrels: each document
 * once, at the rank of its best chunk, gaining its grade; the ideal from the graded documents sorted by
 * grade (cut at 10). 0 when no document is graded above 0.
 */
export function gradedDocNdcgAt10(rankedDocIds: readonly string[], grades: ReadonlyMap<string, number>): number {
  const gains = firstOccurrences(rankedDocIds)
    .slice(0, CUT)
    .map((id) => grades.get(id) ?? 0)
  return normalisedDcg(gains, [...grades.values()], CUT)
}

/** Each id once, at its first position (the doc-level ranking of a chunk ranking). */
export function firstOccurrences(ids: readonly string[]): string[] {
  return [...new Set(ids)]
}
