import type { Report } from '../contract/report-schema.ts'
import type { SystemErrorsVerdict } from '../contract/gate-schema.ts'
import { nameIds } from './name-ids.ts'

/** The questions of a report the system failed on, in report order, with their errors. */
export function erroredQuestions(report: Pick<Report, 'questions'>): { id: string; error: string }[] {
  return report.questions.flatMap((q) => (q.systemError === null ? [] : [{ id: q.id, error: q.systemError }]))
}

/** Above config.maxSystemErrorRate (exactly the limit passes), or errors on every question whatever the limit. */
export function systemErrorRateExceeded(report: Report): boolean {
  const { systemErrors, systemErrorRate } = report.summary
  return systemErrors > 0 && (systemErrorRate > report.config.maxSystemErrorRate || systemErrors === report.questions.length)
}

/**
 * The gate's account of the system errors (docs/reliability.md), null when none: above config.maxSystemErrorRate
 * it fails; at or under, each errored question gets status system-error (no verdict), named with the baseline's
 * verdict and left out of the metrics.
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

/** The case "system errors within maxSystemErrorRate" (pure): fails above the limit, with or without GATE. */
export function systemErrorRateCase(report: Report): { passed: boolean; message: string } {
  const verdict = systemErrorsVerdict(report)
  if (verdict === null) return { passed: true, message: 'the system answered every question' }
  const message = `${describeSystemErrorRate(verdict)}: ${nameIds(verdict.unmeasured.map((q) => q.id))}`
  return verdict.exceeded
    ? { passed: false, message: `${message}; the run did not measure the system (latest.md shows each error)` }
    : { passed: true, message }
}
