import { COVERAGE, FAITHFULNESS } from '../contract/metrics/metric-table.ts'
import type { JudgeCorrected, JudgeCorrectedRate, QuestionOutcome } from '../contract/report-schema.ts'
import { clipToRate, round4 } from '../statistics/descriptive.ts'
import { predictionPoweredMean, type PredictionPoweredItem } from '../statistics/prediction-powered-mean.ts'
import type { HumanLabel } from './human-labels-schema.ts'
import { stratumOf } from './stratified-sample.ts'

/** How one judge-derived rate reads a question: the judge's score, and the person's value on a label. */
interface RateDefinition {
  judge: (outcome: QuestionOutcome) => number | null
  human: (label: HumanLabel) => number | null
  /** What the person's value is, for the reader. */
  means: string
}

/** The judge got the refusal decision right: it refused exactly the questions no document answers (type none). */
const refusedRightly = (outcome: QuestionOutcome) =>
  outcome.refused === null ? null : outcome.refused === (outcome.type === 'none') ? 1 : 0

export const JUDGE_CORRECTED_RATES: Record<keyof JudgeCorrected, RateDefinition> = {
  [FAITHFULNESS.name]: {
    judge: FAITHFULNESS.value,
    human: (l) => (l.label === 'supported' ? 1 : 0),
    means: 'share of answers a person finds wholly supported by the material',
  },
  refusalCorrectness: {
    judge: refusedRightly,
    human: (l) => (l.refusalCorrect === undefined ? null : l.refusalCorrect ? 1 : 0),
    means: 'share of questions where answering or refusing was right, as a person reads the answer and the corpus',
  },
  [COVERAGE.name]: {
    judge: COVERAGE.value,
    human: (l) => l[COVERAGE.name] ?? null,
    means: "mean share of the golden answer's facts a person finds stated in the answer",
  },
}

function correctedRate(
  definition: RateDefinition,
  outcomes: readonly QuestionOutcome[],
  current: ReadonlyMap<string, HumanLabel>,
): JudgeCorrectedRate {
  const items: PredictionPoweredItem[] = []
  for (const outcome of outcomes) {
    const judge = definition.judge(outcome)
    if (judge === null) continue
    const label = current.get(outcome.id)
    items.push({ stratum: stratumOf(outcome), judge, human: label ? definition.human(label) : null })
  }
  const labelled = items.filter((i) => i.human !== null).length
  const judgeMean = items.length === 0 ? null : round4(items.reduce((s, i) => s + i.judge, 0) / items.length)
  const result = predictionPoweredMean(items)
  if (result === null)
    return {
      judgeMean,
      estimate: null,
      interval: null,
      rectifier: null,
      questions: items.length,
      labelled,
      means: definition.means,
      reason: `${labelled} current human label(s) carry this rate; the correction needs at least 2`,
    }
  // Every rate lies in [0, 1]: clipping the estimate and the normal interval to it never drops the true value, and
  // the interval then still holds the estimate (the gate clips the baseline the same way: judge-correction.ts).
  const estimate = clipToRate(result.estimate)
  return {
    judgeMean,
    estimate: round4(estimate),
    interval: { low: round4(clipToRate(result.low)), high: round4(clipToRate(result.high)), method: 'prediction-powered' },
    rectifier: round4(result.judgeMean - estimate),
    questions: items.length,
    labelled,
    means: definition.means,
    reason: null,
  }
}

/**
 * Each judge-derived rate twice: the judge's mean over every question it scored, and the prediction-powered
 * estimate of people's, with its 95% interval, stratified by stratumOf. Only `current` labels (answer unchanged) count.
 */
export function judgeCorrectedRates(outcomes: readonly QuestionOutcome[], current: readonly HumanLabel[]): JudgeCorrected {
  const byId = new Map(current.map((label) => [label.id, label]))
  const rates = Object.entries(JUDGE_CORRECTED_RATES).map(([name, rate]) => [name, correctedRate(rate, outcomes, byId)])
  return Object.fromEntries(rates) as JudgeCorrected
}
