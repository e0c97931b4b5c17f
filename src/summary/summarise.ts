import { QUESTION_TYPES, ANSWERABLE_TYPES } from '../contract/question-types.ts'
import { DIAGNOSES } from '../contract/diagnoses.ts'
import type { QuestionOutcome, Summary } from '../contract/report-schema.ts'
import { minimumDetectableDrop } from '../statistics/minimum-detectable-drop.ts'
import { meanOrNull, percentile, round4 } from '../statistics/descriptive.ts'
import type { MeanResampler } from '../statistics/mean-resamples.ts'
import { summaryIntervals, type IntervalRequest } from './summary-interval.ts'

type AnswerableType = (typeof ANSWERABLE_TYPES)[number]
type RankingField = 'reciprocalRank' | 'ndcg10' | 'docNdcg10' | 'recallAtK' | 'idBasedContextRecall' | 'idBasedContextPrecision'

/** Why generation metrics are null in the retrieval tier. */
export const NO_ANSWERS_REASON = 'retrieval tier: the system generated no answers'

/**
 * The statistics of a summary: bootstrap resamples (config bootstrapResamples) and alpha (config alpha),
 * and how the bootstrap's replicates are computed (on this thread unless the caller hands another way).
 */
export interface SummaryStatistics {
  resamples: number
  alpha: number
  resampler?: MeanResampler
}

/**
 * The run's summary, a pure function of the per-question outcomes: retrieval means over the answerable
 * questions, overall and per type; refusal rates (none questions, and false refusals of answerable ones;
 * unclear refusals counted apart and left out of both); generation means with their P10 (the worst
 * tenth's edge) over the questions that have the score; the diagnosis counts. A mean over no questions
 * is null with its reason in `notComputed`; in the retrieval tier every generation metric is null.
 * With `statistics`, every mean gets its 95% interval in `intervals` (summaryIntervals: Wilson for
 * proportions, seeded bootstrap for means); without (benchmarks), none. The minimum detectable drop of
 * recall (80% power, two-sided alpha, default 0.05) tells how large a regression this golden set can see.
 */
export function summarise(
  outcomes: readonly QuestionOutcome[],
  judge: string | null = null,
  judgeErrors = 0,
  noAnswersReason = NO_ANSWERS_REASON,
  statistics: SummaryStatistics | null = null,
): Summary {
  const means = summaryMeans(noAnswersReason)
  const { notComputed, mean, noAnswers } = means
  const answerable = outcomes.filter((o) => o.type !== 'none')
  const generated = outcomes.some((o) => o.generation !== null)
  const contradictions = answerable.filter((o) => o.contradictionHandled !== null)
  const faithfulness = generationMetric(outcomes, 'faithfulness', 'no answer had a decidable claim', generated, means)
  const relevancy = generationMetric(outcomes, 'answerRelevancy', 'no answer could be scored', generated, means)
  const coverage = generationMetric(outcomes, 'coverage', 'no answer to an answerable question', generated, means)
  const diagnosed = answerable.filter((o) => o.diagnosis !== null)
  const systemErrors = outcomes.filter((o) => o.systemError !== null).length

  const summary: Summary = {
    questions: outcomes.length,
    answerable: answerable.length,
    questionsByType: Object.fromEntries(
      QUESTION_TYPES.map((t) => [t, outcomes.filter((o) => o.type === t).length]),
    ) as Summary['questionsByType'],
    ...retrievalMeans(outcomes, answerable, means),
    ...refusalMeans(outcomes, answerable, generated, means),
    faithfulness: faithfulness.mean,
    faithfulnessP10: faithfulness.p10,
    answerRelevancy: relevancy.mean,
    answerRelevancyP10: relevancy.p10,
    coverage: coverage.mean,
    coverageP10: coverage.p10,
    contradictionHandledRate: generated
      ? mean(
          'contradictionHandledRate',
          contradictions.map((o) => (o.contradictionHandled ? 1 : 0)),
          'no contradiction question with a governing document',
          'proportion',
        )
      : noAnswers('contradictionHandledRate'),
    diagnosis: generated
      ? (Object.fromEntries(DIAGNOSES.map((d) => [d, diagnosed.filter((o) => o.diagnosis === d).length])) as NonNullable<
          Summary['diagnosis']
        >)
      : noAnswers('diagnosis'),
    judge: judge,
    judgeErrors: generated ? judgeErrors : noAnswers('judgeErrors'),
    judgeErrorRate: generated ? judgeErrorRate(outcomes, judgeErrors, notComputed) : noAnswers('judgeErrorRate'),
    systemErrors,
    systemErrorRate: outcomes.length === 0 ? 0 : round4(systemErrors / outcomes.length),
    notComputed,
    intervals: {},
    minimumDetectableRecallDrop: null,
  }
  if (statistics) summary.intervals = summaryIntervals(means.intervalRequests, statistics.resamples, statistics.resampler)
  summary.minimumDetectableRecallDrop = detectableRecallDrop(
    answerable.length,
    summary.recall,
    statistics?.alpha ?? 0.05,
    notComputed,
  )
  return summary
}

type MeanKind = 'proportion' | 'mean'

/** A summary's means as they are taken: each rounded, its values kept for its interval, its reason kept when it has none. */
interface SummaryMeans {
  readonly notComputed: Record<string, string>
  readonly intervalRequests: IntervalRequest[]
  readonly mean: (path: string, values: readonly number[], emptyReason: string, kind?: MeanKind) => number | null
  /** Null, the reason being that the system generated no answers. */
  readonly noAnswers: (path: string) => null
}

function summaryMeans(noAnswersReason: string): SummaryMeans {
  const notComputed: Record<string, string> = {}
  // Every mean's values, for its interval: computed at the end, all at once (the bootstrap shares its draws).
  const intervalRequests: IntervalRequest[] = []
  return {
    notComputed,
    intervalRequests,
    mean: (path, values, emptyReason, kind = 'mean') => {
      const value = meanOrNull(values)
      if (value === null) notComputed[path] = emptyReason
      intervalRequests.push({ path, values, kind })
      return value === null ? null : round4(value)
    },
    noAnswers: (path) => {
      notComputed[path] = noAnswersReason
      return null
    },
  }
}

type RetrievalMeans = Pick<
  Summary,
  | 'recall'
  | 'recallByType'
  | 'recallAtK'
  | 'recallAtKByType'
  | 'mrr'
  | 'mrrByType'
  | 'ndcg10'
  | 'ndcg10ByType'
  | 'docNdcg10'
  | 'idBasedContextRecall'
  | 'idBasedContextPrecision'
>

/** The retrieval means, over the answerable questions (overall and per type) or, for RAGAS's, every question. */
function retrievalMeans(
  outcomes: readonly QuestionOutcome[],
  answerable: readonly QuestionOutcome[],
  { mean }: SummaryMeans,
): RetrievalMeans {
  const ofType = (type: AnswerableType) => answerable.filter((o) => o.type === type)
  const hits = (list: readonly QuestionOutcome[]) => list.map((o) => (o.hit ? 1 : 0))
  const field = (list: readonly QuestionOutcome[], name: RankingField) => list.flatMap((o) => (o[name] === null ? [] : [o[name]]))
  const byType = (path: string, values: (list: readonly QuestionOutcome[]) => number[], kind: MeanKind = 'mean') =>
    Object.fromEntries(
      ANSWERABLE_TYPES.map((type) => [
        type,
        mean(`${path}.${type}`, values(ofType(type)), `no ${type} questions in the golden set`, kind),
      ]),
    ) as Record<AnswerableType, number | null>
  const noAnswerable = 'no answerable questions in the golden set'
  const ndcgReason =
    answerable.length > 0
      ? 'the system does not report its chunk counts per document (chunkCountByDoc), ' +
        'which the ideal ranking needs: docNdcg10, the doc-level nDCG@10, stands in for it'
      : noAnswerable
  return {
    recall: mean('recall', hits(answerable), noAnswerable, 'proportion'),
    recallByType: byType('recallByType', hits, 'proportion'),
    recallAtK: mean('recallAtK', field(answerable, 'recallAtK'), noAnswerable),
    recallAtKByType: byType('recallAtKByType', (list) => field(list, 'recallAtK')),
    mrr: mean('mrr', field(answerable, 'reciprocalRank'), noAnswerable),
    mrrByType: byType('mrrByType', (list) => field(list, 'reciprocalRank')),
    ndcg10: mean('ndcg10', field(answerable, 'ndcg10'), ndcgReason),
    ndcg10ByType: byType('ndcg10ByType', (list) => field(list, 'ndcg10')),
    docNdcg10: mean('docNdcg10', field(answerable, 'docNdcg10'), noAnswerable),
    // Over every question where RAGAS's definition gives a number (none questions have precision 0 or null, no recall).
    idBasedContextRecall: mean(
      'idBasedContextRecall',
      field(outcomes, 'idBasedContextRecall'),
      'no question has answer documents',
    ),
    idBasedContextPrecision: mean(
      'idBasedContextPrecision',
      field(outcomes, 'idBasedContextPrecision'),
      'no question has a context',
    ),
  }
}

/** Refusal rates over the questions with a clear answer or refusal; unclear refusals counted apart. */
function refusalMeans(
  outcomes: readonly QuestionOutcome[],
  answerable: readonly QuestionOutcome[],
  generated: boolean,
  { mean, noAnswers }: SummaryMeans,
): Pick<Summary, 'refusalRate' | 'falseRefusalRate' | 'refusalUnclear'> {
  const refusals = (list: readonly QuestionOutcome[]) => list.map((o) => (o.refused ? 1 : 0))
  const answered = (list: readonly QuestionOutcome[]) => list.filter((o) => o.refused !== null)
  const none = outcomes.filter((o) => o.type === 'none')
  return {
    refusalRate: generated
      ? mean('refusalRate', refusals(answered(none)), 'no none question got a clear answer or refusal', 'proportion')
      : noAnswers('refusalRate'),
    falseRefusalRate: generated
      ? mean(
          'falseRefusalRate',
          refusals(answered(answerable)),
          'no answerable question got a clear answer or refusal',
          'proportion',
        )
      : noAnswers('falseRefusalRate'),
    refusalUnclear: generated ? outcomes.filter((o) => o.generation?.refusal === 'unclear').length : noAnswers('refusalUnclear'),
  }
}

/** A generation metric's mean and P10 (the worst tenth's edge) over the questions that have the score. */
function generationMetric(
  outcomes: readonly QuestionOutcome[],
  name: 'faithfulness' | 'answerRelevancy' | 'coverage',
  reason: string,
  generated: boolean,
  { mean, noAnswers, notComputed }: SummaryMeans,
): { mean: number | null; p10: number | null } {
  if (!generated) return { mean: noAnswers(name), p10: noAnswers(`${name}P10`) }
  const values = outcomes.flatMap((o) => (o[name] === null ? [] : [o[name]]))
  const p10 = percentile(values, 10)
  if (p10 === null) notComputed[`${name}P10`] = reason
  return { mean: mean(name, values, reason), p10: p10 === null ? null : round4(p10) }
}

/**
 * The smallest drop of recall the paired McNemar test detects at 80% power on this many answerable questions; null with its
 * reason otherwise.
 */
function detectableRecallDrop(
  answerable: number,
  recall: number | null,
  alpha: number,
  notComputed: Record<string, string>,
): number | null {
  if (recall === null || answerable === 0) {
    notComputed.minimumDetectableRecallDrop = 'no answerable questions in the golden set'
    return null
  }
  const drop = minimumDetectableDrop(answerable, recall, { alpha, power: 0.8 })
  if (drop === null)
    notComputed.minimumDetectableRecallDrop =
      `even losing every hit (recall ${recall}) is not detectable on ${answerable} answerable ` + `questions at 80% power`
  return drop === null ? null : round4(drop)
}

/** Judge errors over the judged answers (questions with an answer); null when nothing was judged. */
function judgeErrorRate(
  outcomes: readonly QuestionOutcome[],
  judgeErrors: number,
  notComputed: Record<string, string>,
): number | null {
  const judged = outcomes.filter((o) => o.answer !== null).length
  if (judged === 0) {
    notComputed.judgeErrorRate = 'no answer was judged'
    return null
  }
  return round4(judgeErrors / judged)
}
