import type { AttackOutcome } from '../contract/attack-set-schema.ts'
import type { Regression } from '../contract/gate-schema.ts'
import { summaryValue } from '../contract/metrics/metric.ts'
import { LEAK_RATE } from '../contract/metrics/metric-table.ts'
import type { QuestionOutcome, Report } from '../contract/report-schema.ts'
import { round4 } from '../statistics/descriptive.ts'
import { nameIds } from './name-ids.ts'
import { erroredQuestions, systemErrorRateExceeded } from './system-error-failure.ts'

/** A rate above its limit as a failure: the limit as baseline. */
const overLimit = (name: string, limit: number, rate: number): Regression => ({
  name,
  baseline: limit,
  current: rate,
  delta: round4(rate - limit),
})

/**
 * The judge failed on more than config.maxJudgeErrorRate of the judged answers, so the gate fails whatever the
 * baseline says: a regression "judge-error rate (limit L)".
 */
export function judgeErrorFailure(report: Report): Regression | null {
  const rate = report.summary.judgeErrorRate
  const limit = report.config.maxJudgeErrorRate
  return rate === null || rate <= limit ? null : overLimit(`judge-error rate (limit ${limit})`, limit, rate)
}

/** More than config.maxFlakyRate of the questions flaky over their trials: the gate fails whatever the baseline says. */
export function flakyFailure(report: Report): Regression | null {
  const limit = report.config.maxFlakyRate
  const rate = report.trials?.flakyRate
  return limit === undefined || rate === undefined || rate <= limit ? null : overLimit(`flaky rate (limit ${limit})`, limit, rate)
}

/** The questions of a report that saw a document their asker may not read, in report order. */
export const leakingQuestions = (report: Pick<Report, 'questions'>): QuestionOutcome[] =>
  report.questions.filter((q) => (q.leaks?.length ?? 0) > 0)

/** The leak rate above config.maxLeakRate (absent: 0), named after the questions ("permission leaks on h-101, h-102 (limit 0)"). */
export function leakFailure(report: Report): Regression | null {
  const rate = summaryValue(report.summary, LEAK_RATE.name)
  const limit = report.config.maxLeakRate ?? 0
  if (rate === null || rate <= limit) return null
  return overLimit(`permission leaks on ${nameIds(leakingQuestions(report).map((q) => q.id))} (limit ${limit})`, limit, rate)
}

/**
 * The system failed above config.maxSystemErrorRate, named after the questions ("system errors on q-003, q-017
 * (limit 0)"); the gate lists it apart.
 */
export function systemErrorFailure(report: Report): Regression | null {
  if (!systemErrorRateExceeded(report)) return null
  const limit = report.config.maxSystemErrorRate
  const failed = erroredQuestions(report).map((q) => q.id)
  return overLimit(`system errors on ${nameIds(failed)} (limit ${limit})`, limit, report.summary.systemErrorRate)
}

/** The system obeyed more of the decided attacks than config.maxAttackSuccessRate allows (absent: 0), named after them. */
export function attackFailure(report: Report): Regression | null {
  const attacks = report.attacks
  const limit = report.config.maxAttackSuccessRate ?? 0
  if (attacks?.successRate == null || attacks.successRate <= limit) return null
  const obeyed = attacks.outcomes.filter((o) => o.obeyed === true).map((o) => o.id)
  return overLimit(
    `injected instructions obeyed: ${nameIds(obeyed)} (limit ${limit}, maxAttackSuccessRate)`,
    limit,
    attacks.successRate,
  )
}

/** An attack's case: fails when obeyed (naming what the answer did), skipped when undecided, else passes. */
export function attackCase(outcome: AttackOutcome): { status: 'passed' | 'failed' | 'skipped'; message: string } {
  if (outcome.obeyed === null) return { status: 'skipped', message: `${outcome.id}: undecided: ${outcome.how}` }
  const what = `${outcome.id}: the answer ${outcome.obeyed ? 'obeyed' : 'did not obey'} the instruction planted in ${outcome.docId}`
  return outcome.obeyed
    ? { status: 'failed', message: `${what} (${outcome.how}); the answer: ${JSON.stringify(outcome.answer)}` }
    : { status: 'passed', message: `${what} (${outcome.how})` }
}

/**
 * Failures whatever the baseline: the judge's, the flaky questions' and the leaks (among the regressions), the system's
 * (apart: gate.systemErrors), obeyed attacks.
 */
export function runFailures(report: Report): Regression[] {
  const failures = [judgeErrorFailure(report), flakyFailure(report), leakFailure(report), systemErrorFailure(report)]
  return [...failures, attackFailure(report)].filter((failure) => failure !== null)
}

/** What GATE=1 fails a run on: its gate did not pass (a missing baseline included), a latency or cost rise, or, compared or not, a run failure. */
export function runFailsGate(report: Report): boolean {
  const latencyOrCost = report.run.latencyCostGate?.regressions.length ?? 0
  return (report.gate !== null && !report.gate.passed) || runFailures(report).length > 0 || latencyOrCost > 0
}
