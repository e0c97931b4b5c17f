import { round4 } from '../statistics/descriptive.ts'
import type { Report } from '../contract/report-schema.ts'
import type { Regression, SystemErrorsVerdict } from '../contract/gate-schema.ts'
import { nameIds } from './name-ids.ts'

/** The questions of a report the system failed on, in report order, with their errors. */
export function erroredQuestions(report: Pick<Report, 'questions'>): { id: string; error: string }[] {
  return report.questions.flatMap((q) => (q.systemError === null ? [] : [{ id: q.id, error: q.systemError }]))
}

/**
 * Whether the run's system errors fail it: a rate above config.maxSystemErrorRate (a rate of exactly the limit
 * is allowed), or an error on every question whatever the limit (even 1): such a run measured nothing.
 */
export function systemErrorRateExceeded(report: Report): boolean {
  const { systemErrors, systemErrorRate } = report.summary
  return systemErrors > 0 && (systemErrorRate > report.config.maxSystemErrorRate || systemErrors === report.questions.length)
}

/**
 * The system under test failed (an error, a response breaking the contract) on more than
 * config.maxSystemErrorRate of the questions: the gate cannot vouch for questions that were never
 * answered, so it fails whatever the baseline says. As a run failure (runFailures, GATE=1's exit code)
 * named after the failed questions ("system errors on q-003, q-017 (limit 0)"), baseline column = the limit;
 * the gate itself lists it apart from the regressions (systemErrorsVerdict).
 */
export function systemErrorFailure(report: Report): Regression | null {
  if (!systemErrorRateExceeded(report)) return null
  const limit = report.config.maxSystemErrorRate
  const rate = report.summary.systemErrorRate
  const failed = erroredQuestions(report).map((q) => q.id)
  return {
    name: `system errors on ${nameIds(failed)} (limit ${limit})`,
    baseline: limit,
    current: rate,
    delta: round4(rate - limit),
  }
}

/**
 * The gate's account of the system errors, null when there are none. The rule (docs/reliability.md): each
 * errored question counts once in rate = errored / all questions of the run, whatever the baseline said of
 * it (one the baseline passed counts exactly like any other); above config.maxSystemErrorRate the gate
 * fails; at or under it the gate neither passes nor fails the question (status system-error: no verdict),
 * names it (with the baseline's verdict) and leaves it out of the metrics' comparisons.
 */
export function systemErrorsVerdict(
  report: Report,
  baselinePassed: (id: string) => boolean | null = () => null,
): SystemErrorsVerdict | null {
  const errored = erroredQuestions(report)
  if (errored.length === 0) return null
  return {
    errors: errored.length,
    questions: report.questions.length,
    rate: report.summary.systemErrorRate,
    limit: report.config.maxSystemErrorRate,
    exceeded: systemErrorRateExceeded(report),
    unmeasured: errored.map(({ id, error }) => ({ id, error, baselinePassed: baselinePassed(id) })),
  }
}

/** `the system failed on 10 of 100 question(s), rate 0.1 > limit 0 (maxSystemErrorRate, EVAL_MAX_SYSTEM_ERROR_RATE)`. */
export function describeSystemErrorRate(verdict: Pick<SystemErrorsVerdict, 'errors' | 'questions' | 'rate' | 'limit'>): string {
  if (verdict.errors > 0 && verdict.errors === verdict.questions && verdict.rate <= verdict.limit)
    return `the system failed on every question (${verdict.errors} of ${verdict.questions}), so the run measured nothing, whatever the limit ${verdict.limit} allows (maxSystemErrorRate, EVAL_MAX_SYSTEM_ERROR_RATE)`
  const comparison = verdict.rate > verdict.limit ? `> limit ${verdict.limit}` : `within the limit ${verdict.limit}`
  return `the system failed on ${verdict.errors} of ${verdict.questions} question(s), rate ${verdict.rate} ${comparison} (maxSystemErrorRate, EVAL_MAX_SYSTEM_ERROR_RATE)`
}

/**
 * The verdict of the case "the system under test failed on no more questions than maxSystemErrorRate
 * allows", a pure function: it fails when the rate is above the limit, with or without GATE (a run that
 * did not measure the system is never shown as passed). The message names the questions.
 */
export function systemErrorRateCase(report: Report): { passed: boolean; message: string } {
  const verdict = systemErrorsVerdict(report)
  if (verdict === null) return { passed: true, message: 'the system answered every question' }
  const message = `${describeSystemErrorRate(verdict)}: ${nameIds(verdict.unmeasured.map((q) => q.id))}`
  return verdict.exceeded
    ? { passed: false, message: `${message}; the run did not measure the system (latest.md shows each error)` }
    : { passed: true, message }
}
