import type { Report } from '../contract/report-schema.ts'
import { ACCEPT_BASELINE } from './baseline-location.ts'
import { baselineFromReport } from './baseline-from-report.ts'
import type { Baseline } from './baseline-schema.ts'
import { nameIds } from './name-ids.ts'
import { describeLeaks } from '../contract/access-schema.ts'
import { leakingQuestions } from './run-failures.ts'
import { describeSystemErrorRate, erroredQuestions, systemErrorRateExceeded } from './system-error-failure.ts'

/** What an accept path does with a run: write `baseline` (and show `warning` when there is one), or refuse it. */
export type BaselineAcceptance =
  { accepted: true; baseline: Baseline; warning: string | null } | { accepted: false; refusal: string }

/**
 * Whether a run may become the baseline (pure): refused, so nothing is written, when the system failed on every
 * question or above config.maxSystemErrorRate, naming them; otherwise accepted, with a warning naming the errored
 * questions, which the baseline leaves out so they never become known misses. A run with a permission leak is
 * refused whatever config.maxLeakRate allows: a leak is never a known miss.
 */
export function decideBaselineAcceptance(report: Report, baselineDir: string): BaselineAcceptance {
  const errored = erroredQuestions(report)
  const ids = nameIds(errored.map((q) => q.id))
  const rate = describeSystemErrorRate({
    errors: errored.length,
    questions: report.questions.length,
    rate: report.summary.systemErrorRate,
    limit: report.config.maxSystemErrorRate,
  })
  const unchanged = `${baselineDir}/ left as it was`
  if (errored.length > 0 && errored.length === report.questions.length)
    return {
      accepted: false,
      refusal: `baseline not accepted: the system failed on every question (${errored.length} of ${errored.length}: ${ids}), so the run measured nothing; first error: ${errored[0]!.error}; ${unchanged}`,
    }
  const leaking = leakingQuestions(report)
  if (leaking.length > 0)
    return {
      accepted: false,
      refusal: `baseline not accepted: permission leaks on ${leaking.length} question(s): ${leaking.map((q) => describeLeaks(q, q.leaks!)).join('; ')}; a leak is never a known miss: fix what the system shows each asker (latest.md lists the leaks), then run \`${ACCEPT_BASELINE}\` again; ${unchanged}`,
    }
  if (systemErrorRateExceeded(report))
    return {
      accepted: false,
      refusal: `baseline not accepted: ${rate}: ${ids}; a baseline must measure the system: fix these errors (latest.md shows each) or raise maxSystemErrorRate, then run \`${ACCEPT_BASELINE}\` again; ${unchanged}`,
    }
  const baseline = baselineFromReport(report)
  if (errored.length === 0) return { accepted: true, baseline, warning: null }
  return {
    accepted: true,
    baseline,
    warning: `baseline accepted with system errors: ${rate}: ${ids}; the baseline has no verdict on them (they are not known misses): accept again once the system answers them`,
  }
}
