import { QUESTION_TYPES, ANSWERABLE_TYPES } from '../contract/question-types.ts'
import { DIAGNOSES } from '../contract/diagnoses.ts'
import type { QuestionOutcome, Summary } from '../contract/report-schema.ts'
import { minimumDetectableDrop } from '../statistics/minimum-detectable-drop.ts'
import { meanOrNull, percentile, round4 } from '../statistics/descriptive.ts'
import type { MeanResampler } from '../statistics/mean-resamples.ts'
import { summaryIntervals, type IntervalRequest } from './summary-interval.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'
import { inScope, stageMetrics, stageNamesOf, summaryKey, type Metric, type MetricScope } from '../contract/metrics/metric.ts'
import { FUNNEL_STEPS } from '../contract/question-outcome-schema.ts'

/** Why generation metrics are null in the retrieval tier. */
export const NO_ANSWERS_REASON = 'retrieval tier: the system generated no answers'

/** The summary's bootstrap resamples and alpha (from config), and where the replicates are computed. */
export interface SummaryStatistics {
  resamples: number
  alpha: number
  resampler?: MeanResampler
}

/**
 * The run's summary of the per-question outcomes: each metric over its scope's questions with a value; a mean
 * over none is null with its reason in `notComputed`. Without `statistics` (benchmarks) no intervals.
 */
export function summarise(
  outcomes: readonly QuestionOutcome[],
  judge: string | null = null,
  judgeErrors = 0,
  noAnswersReason = NO_ANSWERS_REASON,
  statistics: SummaryStatistics | null = null,
  table: MetricTable = METRICS,
): Summary {
  const notComputed: Record<string, string> = {}
  // Every mean's values, for its interval: computed at the end, all at once (the bootstrap shares its draws).
  const intervalRequests: IntervalRequest[] = []
  const answerable = outcomes.filter((o) => o.type !== 'none')
  const generated = outcomes.some((o) => o.generation !== null)
  const diagnosed = answerable.filter((o) => o.diagnosis !== null)
  const systemErrors = outcomes.filter((o) => o.systemError !== null).length
  const noAnswers = (path: string) => {
    notComputed[path] = noAnswersReason
    return null
  }

  // P10 metrics first: their reasons and intervals lead notComputed and intervals (byte-identical reports).
  const fields = new Map<Metric, [string, unknown][]>()
  for (const metric of [...table.filter((m) => m.p10), ...table.filter((m) => !m.p10)])
    fields.set(
      metric,
      // Without answers, every metric of the answer or the judge is null, the reason being the tier's.
      metric.source !== 'retrieval' && !generated
        ? [metric.name, ...(metric.p10 ? [`${metric.name}P10`] : [])].map((path): [string, null] => [path, noAnswers(path)])
        : metricFields(metric, outcomes, notComputed, intervalRequests),
    )
  const stageNames = stageNamesOf(outcomes)
  if (stageNames.length === 0) notComputed.stages = 'the system reported no stages'
  const stages = Object.fromEntries(
    stageNames.map((stage) => [
      stage,
      Object.fromEntries(
        stageMetrics(table, [stage]).flatMap((metric) => metricFields(metric, outcomes, notComputed, intervalRequests)),
      ),
    ]),
  )
  const summary = {
    questions: outcomes.length,
    answerable: answerable.length,
    questionsByType: Object.fromEntries(
      QUESTION_TYPES.map((t) => [t, outcomes.filter((o) => o.type === t).length]),
    ) as Summary['questionsByType'],
    ...Object.fromEntries(table.flatMap((metric) => fields.get(metric)!)),
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
    stages,
    funnel: funnelCounts(outcomes),
  } as Summary
  if (statistics) summary.intervals = summaryIntervals(intervalRequests, statistics.resamples, statistics.resampler)
  summary.minimumDetectableRecallDrop = detectableRecallDrop(
    answerable.length,
    summary.recall,
    statistics?.alpha ?? 0.05,
    notComputed,
  )
  return summary
}

/** A metric's fields: overall, per answerable type, P10; each rounded, its reason when null, its values for the interval. */
function metricFields(
  metric: Metric,
  outcomes: readonly QuestionOutcome[],
  notComputed: Record<string, string>,
  intervalRequests: IntervalRequest[],
): [string, unknown][] {
  const valuesOf = (scope: MetricScope) =>
    outcomes
      .filter((o) => inScope(scope, o))
      .flatMap((o) => {
        const value = metric.value(o)
        return value === null ? [] : [value]
      })
  const mean = (path: string, scope: MetricScope, reason: string, allNullReason = reason) => {
    const values = valuesOf(scope)
    const value = meanOrNull(values)
    if (value === null) notComputed[path] = outcomes.some((o) => inScope(scope, o)) ? allNullReason : reason
    // A rate averaged over trials is a mean of fractions: the bootstrap's, not Wilson's.
    const binary = metric.aggregate === 'rate' && values.every((v) => v === 0 || v === 1)
    intervalRequests.push({ path, values, kind: binary ? 'proportion' : 'mean' })
    return value === null ? null : round4(value)
  }
  // A metric at a stage is held under its stage (`stages.rerank.recall`), by the table metric's name.
  const name = metric.at?.metric.name ?? metric.name
  const path = summaryKey(metric)
  if (metric.aggregate === 'count') return [[name, valuesOf(metric.scope).reduce((sum, v) => sum + v, 0)]]
  const fields: [string, unknown][] = []
  let p10: number | null = null
  if (metric.p10) {
    // The P10's reason is noted before the mean's (notComputed keeps that order).
    p10 = percentile(valuesOf(metric.scope), 10)
    if (p10 === null) notComputed[`${path}P10`] = metric.whenEmpty
  }
  fields.push([name, mean(path, metric.scope, metric.whenEmpty, metric.whenAllNull)])
  if (metric.byType === 'summary') {
    const byType = ANSWERABLE_TYPES.map((type) => [
      type,
      mean(`${path}ByType.${type}`, type, `no ${type} questions in the golden set`),
    ])
    fields.push([`${name}ByType`, Object.fromEntries(byType)])
  }
  if (metric.p10) fields.push([`${name}P10`, p10 === null ? null : round4(p10)])
  return fields
}

/** The loss funnel's counts over every answer document of the answerable questions (and the cuts of each stage); null without one. */
function funnelCounts(outcomes: readonly QuestionOutcome[]): Summary['funnel'] {
  const entries = outcomes.flatMap((o) => o.funnel ?? [])
  if (entries.length === 0) return null
  const count = (lost: string) => entries.filter((e) => e.lost === lost).length
  // Every stage that could cut (all but a pipeline's first), 0 included, in pipeline order.
  const byStage: Record<string, number> = Object.fromEntries(
    outcomes.flatMap((o) => o.stages.slice(1).map((stage): [string, number] => [stage.name, 0])),
  )
  for (const { stage } of entries) if (stage !== undefined) byStage[stage] = (byStage[stage] ?? 0) + 1
  return {
    documents: entries.length,
    ...Object.fromEntries(FUNNEL_STEPS.map((s) => [s, count(s)])),
    byStage,
  } as Summary['funnel']
}

/** The smallest recall drop the paired McNemar test detects at 80% power (docs/statistics.md); null with its reason. */
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
