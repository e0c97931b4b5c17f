import { round4 } from '../statistics/descriptive.ts'
import type { Report } from '../contract/report-schema.ts'
import type { Regression } from '../contract/gate-schema.ts'

/**
 * The system under test failed (an error, a response breaking the contract) on more than
 * config.maxSystemErrorRate of the questions: the gate cannot vouch for questions that were never
 * answered, so it fails whatever the baseline says. Reported as a regression named after the failed
 * questions ("system errors on q-003, q-017 (limit 0)"), baseline column = the limit.
 */
export function systemErrorFailure(report: Report): Regression | null {
  const limit = report.config.maxSystemErrorRate
  const rate = report.summary.systemErrorRate
  if (report.summary.systemErrors === 0 || rate <= limit) return null
  const failed = report.questions.filter((q) => q.systemError !== null).map((q) => q.id)
  const named = failed.length > 10 ? `${failed.slice(0, 10).join(', ')} and ${failed.length - 10} more` : failed.join(', ')
  return { name: `system errors on ${named} (limit ${limit})`, baseline: limit, current: rate, delta: round4(rate - limit) }
}
