import type { QuestionOutcome } from './report-schema.ts'

/** A question's scores, as the baseline keeps them and the attribution records show them. */
export type QuestionMetrics = Pick<
  QuestionOutcome,
  'hit' | 'reciprocalRank' | 'ndcg10' | 'refused' | 'faithfulness' | 'answerRelevancy' | 'coverage'
>

export function questionMetrics(q: QuestionOutcome): QuestionMetrics {
  return {
    hit: q.hit,
    reciprocalRank: q.reciprocalRank,
    ndcg10: q.ndcg10,
    refused: q.refused,
    faithfulness: q.faithfulness,
    answerRelevancy: q.answerRelevancy,
    coverage: q.coverage,
  }
}
