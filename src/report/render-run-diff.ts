import { METRICS } from '../contract/metrics/metric-table.ts'
import { gatedEntries, summaryValue } from '../contract/metrics/metric.ts'
import { questionPassed, questionThresholds } from '../gate/question-checks.ts'
import type { Report } from '../contract/report-schema.ts'

const state = (passed: boolean | null) => (passed === null ? 'n/a' : passed ? 'pass' : 'miss')

/** What changed since the watch session's previous run: flipped questions and moved gated metrics; empty if nothing. */
export function renderRunDiff(previous: Report, current: Report): string[] {
  const before = new Map(previous.questions.map((q) => [q.id, questionPassed(q, questionThresholds(previous))]))
  const flips = current.questions.flatMap((q) => {
    const was = before.get(q.id)
    const now = questionPassed(q, questionThresholds(current))
    return was !== undefined && was !== now ? [`  ${q.id} [${q.type}] ${state(was)} -> ${state(now)}`] : []
  })
  const moves = gatedEntries(METRICS).flatMap((metric) => {
    const was = summaryValue(previous.summary, metric.path)
    const now = summaryValue(current.summary, metric.path)
    if (was === now) return []
    const delta = was !== null && now !== null ? ` (${now - was >= 0 ? '+' : ''}${(now - was).toFixed(4)})` : ''
    return [`  ${metric.label}: ${was ?? 'n/a'} -> ${now ?? 'n/a'}${delta}`]
  })
  const lines: string[] = []
  if (flips.length > 0) lines.push(`questions that flipped since the last run (${flips.length}):`, ...flips)
  if (moves.length > 0) lines.push('metrics that moved since the last run:', ...moves)
  return lines.length > 0 ? lines : ['since the last run: no question flipped, no metric moved']
}
