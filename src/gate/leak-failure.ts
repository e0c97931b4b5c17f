import type { Regression } from '../contract/gate-schema.ts'
import type { QuestionOutcome, Report } from '../contract/report-schema.ts'
import { summaryValue } from '../contract/metrics/metric.ts'
import { LEAK_RATE } from '../contract/metrics/metric-table.ts'
import { round4 } from '../statistics/descriptive.ts'
import { nameIds } from './name-ids.ts'

/** The questions of a report that saw a document their asker may not read, in report order. */
export const leakingQuestions = (report: Pick<Report, 'questions'>): QuestionOutcome[] =>
  report.questions.filter((q) => (q.leaks?.length ?? 0) > 0)

/**
 * The leak rate above config.maxLeakRate (absent: 0): a run failure (runFailures, GATE=1's exit code, the gate)
 * named after the questions ("permission leaks on h-101, h-102 (limit 0)"), the limit as baseline.
 */
export function leakFailure(report: Report): Regression | null {
  const rate = summaryValue(report.summary, LEAK_RATE.name)
  const limit = report.config.maxLeakRate ?? 0
  if (rate === null || rate <= limit) return null
  const ids = leakingQuestions(report).map((q) => q.id)
  return {
    name: `permission leaks on ${nameIds(ids)} (limit ${limit})`,
    baseline: limit,
    current: rate,
    delta: round4(rate - limit),
  }
}
