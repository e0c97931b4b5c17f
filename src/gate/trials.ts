import type { QuestionOutcome } from '../contract/report-schema.ts'
import type { BaselineQuestion } from './baseline-schema.ts'
import type { QuestionTrials, ReportTrials, TrialRun } from '../contract/trials-schema.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'
import { minimumDetectableDrop } from '../statistics/minimum-detectable-drop.ts'
import { normalQuantile } from '../statistics/normal-quantile.ts'
import { round4 } from '../statistics/descriptive.ts'
import { trialInterval } from '../statistics/trial-interval.ts'
import { questionPassed, type CheckedOutcome, type QuestionThresholds } from './question-checks.ts'

/** A trial's record of its outcome: what the verdict reads and each table metric's value (none after a system error). */
function trialRun(outcome: QuestionOutcome): TrialRun {
  const { rankedDocIds, hit, refused, systemError } = outcome
  const values = systemError === null ? Object.fromEntries(METRICS.map((m) => [m.name, m.value(outcome)])) : {}
  return { rankedDocIds, hit, refused, systemError, values }
}

/** Each question's outcomes over the trials (trial-major) as one outcome: the first trial's, with every trial's record. */
export function combineTrials(perTrial: readonly (readonly QuestionOutcome[])[]): QuestionOutcome[] {
  return perTrial[0]!.map((first, i) => ({
    ...first,
    trials: judgeTrials(
      perTrial.map((outcomes) => trialRun(outcomes[i]!)),
      first,
      null,
    ),
  }))
}

/**
 * A question's trials judged: each trial's verdict (under `thresholds`; none before the report knows them), pass rate,
 * pass@k and pass^k (k = all trials), the metrics whose value varied, each metric's mean and interval across trials.
 */
export function judgeTrials(
  runs: readonly TrialRun[],
  question: Pick<QuestionOutcome, 'id' | 'type'>,
  thresholds: QuestionThresholds | null,
): QuestionTrials {
  const passed = thresholds === null ? [] : runs.map((run) => trialPassed(run, question, thresholds))
  const decided = passed.filter((p) => p !== null)
  const varied = new Set(decided).size > 1 ? ['verdict'] : []
  if (new Set(runs.map((run) => run.systemError === null)).size > 1) varied.push('systemError')
  const measured = runs.filter((run) => run.systemError === null)
  if (new Set(measured.map((run) => run.rankedDocIds.join('\n'))).size > 1) varied.push('ranking')
  const metrics: QuestionTrials['metrics'] = {}
  for (const { name } of METRICS) {
    const values = measured.map((run) => run.values[name] ?? null)
    if (new Set(values).size > 1) varied.push(name)
    const interval = trialInterval(values.filter((v) => v !== null))
    if (interval) metrics[name] = { mean: round4(interval.mean), low: round4(interval.low), high: round4(interval.high) }
  }
  return {
    runs: [...runs],
    passed,
    passRate: decided.length === 0 ? null : round4(decided.filter(Boolean).length / decided.length),
    passAtK: decided.length === 0 ? null : decided.some(Boolean),
    passHatK: decided.length === 0 ? null : decided.every(Boolean),
    flaky: varied.length > 0,
    varied,
    metrics,
  }
}

/** One trial's verdict: the question's checks over the trial's record (a system error decides nothing). */
function trialPassed(
  run: TrialRun,
  question: Pick<QuestionOutcome, 'id' | 'type'>,
  thresholds: QuestionThresholds,
): boolean | null {
  if (run.systemError !== null) return null
  const checked = Object.fromEntries(
    (METRICS as MetricTable).flatMap((m) => (m.questionCheck && m.field ? [[m.field, run.values[m.name] ?? null]] : [])),
  )
  return questionPassed({ ...checked, id: question.id, type: question.type, hit: run.hit, refused: run.refused }, thresholds)
}

/** A question's passing trials of those decided; a question asked once counts as 1 of 1 or 0 of 1. */
export function trialCounts(outcome: CheckedOutcome, thresholds: QuestionThresholds): { passed: number; of: number } | null {
  if (outcome.trials === undefined) {
    const passed = questionPassed(outcome, thresholds)
    return passed === null ? null : { passed: passed ? 1 : 0, of: 1 }
  }
  const decided = outcome.trials.passed.filter((p) => p !== null)
  return decided.length === 0 ? null : { passed: decided.filter(Boolean).length, of: decided.length }
}

/** Whether the baseline passed a question: at least half its accepted trials, or its one outcome's checks. */
export function acceptedPassed(accepted: BaselineQuestion, thresholds: QuestionThresholds): boolean | null {
  const trials = accepted.passedTrials
  return trials ? trials.passed * 2 >= trials.of : questionPassed(accepted, thresholds)
}

/**
 * The run's trials: the flaky questions (golden-set order), their share, and the smallest drop of the mean pass rate
 * detectable at 80% power, two-sided alpha: the larger of the paired McNemar floor on the questions and the trials'
 * noise, (z(1 - alpha/2) + z(0.8)) · sqrt(2 · sum of p(1 - p) / (n - 1)) / N over the N questions' pass rates p.
 */
export function reportTrials(
  questions: readonly QuestionOutcome[],
  config: { trials?: number | undefined; tolerance: number; alpha: number },
): ReportTrials | undefined {
  const n = config.trials ?? 1
  if (n === 1) return undefined
  const flaky = questions.flatMap((q) => {
    if (!q.trials?.flaky) return []
    const decided = q.trials.passed.filter((p) => p !== null)
    return [{ id: q.id, passed: decided.filter(Boolean).length, of: decided.length, varied: q.trials.varied }]
  })
  const rates = questions.flatMap((q) => (q.trials?.passRate == null ? [] : [q.trials.passRate]))
  const drop = detectableDrop(rates, n, config.alpha)
  const shown = drop === null ? 'no drop at all' : `no drop smaller than ${round4(drop)}`
  return {
    trials: n,
    flaky,
    flakyRate: questions.length === 0 ? 0 : round4(flaky.length / questions.length),
    minimumDetectableDrop: drop === null ? null : round4(drop),
    underpowered:
      drop !== null && drop <= config.tolerance
        ? null
        : `${rates.length} questions x ${n} trials detect ${shown} in the pass rate at 80% power, more than the tolerance ${config.tolerance}: add questions or trials`,
  }
}

function detectableDrop(rates: readonly number[], trials: number, alpha: number): number | null {
  if (rates.length === 0) return null
  const mean = rates.reduce((sum, p) => sum + p, 0) / rates.length
  const floor = minimumDetectableDrop(rates.length, mean, { alpha, power: 0.8 })
  if (floor === null) return null
  const spread = rates.reduce((sum, p) => sum + (p * (1 - p)) / (trials - 1), 0)
  const noise = ((normalQuantile(1 - alpha / 2) + normalQuantile(0.8)) * Math.sqrt(2 * spread)) / rates.length
  return Math.max(floor, noise)
}
