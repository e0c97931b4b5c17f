import { COVERAGE } from '../../contract/metrics/metric-table.ts'
import type { QuestionOutcome } from '../../contract/report-schema.ts'
import { describeEvidence, type QuestionEvidence } from './evidence.ts'
import type { MatcherVerdict } from './verdict.ts'

/** toCoverGoldAnswer({ min }): the answer holds at least `min` of the gold answer's key facts. Undecidable when null. */
export function coverGoldAnswer(
  outcome: QuestionEvidence & Pick<QuestionOutcome, (typeof COVERAGE)['field'] | 'goldAnswer'>,
  options: { min: number },
): MatcherVerdict {
  const value = COVERAGE.value(outcome)
  if (value === null) return { undecidable: `${outcome.id}: ${COVERAGE.label} not computed (no answer or no gold answer)` }
  return {
    pass: value >= options.min,
    claim: `the answer of ${outcome.id} to cover >= ${options.min} of the gold answer (got ${value})`,
    evidence: () => `gold answer ${outcome.goldAnswer ?? '(none)'}\n${describeEvidence(outcome)}`,
  }
}
