import { normalisedDcg } from './dcg.ts'

const CUT = 10

/**
 * Chunk-level nDCG@10, binary: gain 1 for each top-10 chunk of an answer doc (several chunks of one doc each
 * gain); ideal DCG of min(relevantChunkCount, 10) gains of 1. 0 when relevantChunkCount is 0 (a none question).
 */
export function ndcgAt10(rankedDocIds: readonly string[], answerDocIds: readonly string[], relevantChunkCount: number): number {
  const answers = new Set(answerDocIds)
  const gains = rankedDocIds.slice(0, CUT).map((id) => (answers.has(id) ? 1 : 0))
  return normalisedDcg(gains, new Array<number>(Math.min(relevantChunkCount, CUT)).fill(1), CUT)
}

/**
 * Chunk-level nDCG@10, graded: each top-10 chunk gains its document's grade; the ideal gives every corpus
 * chunk of a graded document its grade, highest first. 0 when no chunk has a grade above 0.
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
 * Doc-level nDCG@10, binary (trec_eval's ndcg_cut.10 on `pnpm trec:export`'s run and qrels): each document
 * once, at its best chunk's rank; ideal over the answer docs. 0 without answer docs.
 */
export function docNdcgAt10(rankedDocIds: readonly string[], answerDocIds: readonly string[]): number {
  return gradedDocNdcgAt10(rankedDocIds, new Map(answerDocIds.map((id) => [id, 1])))
}

/**
 * Doc-level nDCG@10, graded (ndcg_cut.10 with graded qrels): each document once, at its best chunk's rank,
 * gaining its grade. 0 when no document is graded above 0.
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
