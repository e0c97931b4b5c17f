import { FAITHFULNESS } from '../../contract/metrics/metric-table.ts'
import type { QuestionOutcome } from '../../contract/report-schema.ts'
import { describeEvidence, type QuestionEvidence } from './evidence.ts'
import type { MatcherVerdict } from './verdict.ts'

/** toBeFaithful({ min }): faithfulness (supported / decidable claims) is at least `min`. Undecidable when null. */
export function beFaithful(
  outcome: QuestionEvidence & Pick<QuestionOutcome, (typeof FAITHFULNESS)['field']>,
  options: { min: number },
): MatcherVerdict {
  const value = FAITHFULNESS.value(outcome)
  if (value === null)
    return { undecidable: `${outcome.id}: ${FAITHFULNESS.label} not computed (no answer, or no decidable claim)` }
  return {
    pass: value >= options.min,
    claim: `${FAITHFULNESS.label} of ${outcome.id} >= ${options.min} (got ${value})`,
    evidence: () => describeEvidence(outcome),
  }
}
