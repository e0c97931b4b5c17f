import { QUESTION_TYPES } from '../load/golden-set-schema.ts'
import type { QuestionOutcome, Summary } from '../report/report-schema.ts'
import { meanOrNull, round4 } from './statistics.ts'

const ANSWERABLE_TYPES = ['single', 'multi', 'contradiction'] as const
type AnswerableType = (typeof ANSWERABLE_TYPES)[number]
type RankingField = 'reciprocalRank' | 'ndcg10' | 'docNdcg10' | 'recallAtK'

/** Why generation metrics are null in the retrieval tier. */
export const NO_ANSWERS_REASON = 'retrieval tier: the system generated no answers'

/**
 * The run's summary, a pure function of the per-question outcomes: means over the answerable questions,
 * overall and per type. A mean over no questions is null with its reason in `notComputed`.
 */
export function summarise(outcomes: readonly QuestionOutcome[]): Summary {
  const notComputed: Record<string, string> = {}
  const answerable = outcomes.filter((o) => o.type !== 'none')
  const mean = (path: string, values: readonly number[], emptyReason: string): number | null => {
    const value = meanOrNull(values)
    if (value === null) notComputed[path] = emptyReason
    return value === null ? null : round4(value)
  }
  const ofType = (type: AnswerableType) => answerable.filter((o) => o.type === type)
  const hits = (list: readonly QuestionOutcome[]) => list.map((o) => (o.hit ? 1 : 0))
  const field = (list: readonly QuestionOutcome[], name: RankingField) =>
    list.flatMap((o) => (o[name] === null ? [] : [o[name]]))
  const byType = (path: string, values: (list: readonly QuestionOutcome[]) => number[]) =>
    Object.fromEntries(
      ANSWERABLE_TYPES.map((type) => [type, mean(`${path}.${type}`, values(ofType(type)), `no ${type} questions in the golden set`)]),
    ) as Record<AnswerableType, number | null>
  const noAnswerable = 'no answerable questions in the golden set'
  const ndcgReason = answerable.length > 0 ? 'the system does not report its chunk counts per document' : noAnswerable

  const summary: Summary = {
    questions: outcomes.length,
    answerable: answerable.length,
    questionsByType: Object.fromEntries(QUESTION_TYPES.map((t) => [t, outcomes.filter((o) => o.type === t).length])) as Summary['questionsByType'],
    recall: mean('recall', hits(answerable), noAnswerable),
    recallByType: byType('recallByType', hits),
    recallAtK: mean('recallAtK', field(answerable, 'recallAtK'), noAnswerable),
    recallAtKByType: byType('recallAtKByType', (list) => field(list, 'recallAtK')),
    mrr: mean('mrr', field(answerable, 'reciprocalRank'), noAnswerable),
    mrrByType: byType('mrrByType', (list) => field(list, 'reciprocalRank')),
    ndcg10: mean('ndcg10', field(answerable, 'ndcg10'), ndcgReason),
    ndcg10ByType: byType('ndcg10ByType', (list) => field(list, 'ndcg10')),
    docNdcg10: mean('docNdcg10', field(answerable, 'docNdcg10'), noAnswerable),
    refusalRate: null,
    falseRefusalRate: null,
    faithfulness: null,
    faithfulnessP10: null,
    answerRelevancy: null,
    coverage: null,
    judgeErrors: null,
    notComputed,
  }
  for (const name of ['refusalRate', 'falseRefusalRate', 'faithfulness', 'faithfulnessP10', 'answerRelevancy', 'coverage', 'judgeErrors']) {
    notComputed[name] = NO_ANSWERS_REASON
  }
  return summary
}
