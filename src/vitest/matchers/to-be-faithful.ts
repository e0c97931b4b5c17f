import { describeEvidence, type QuestionEvidence } from './evidence.ts'
import type { MatcherVerdict } from './verdict.ts'

/** toBeFaithful({ min }): faithfulness (supported / decidable claims) is at least `min`. Undecidable when null. */
export function beFaithful(
  outcome: QuestionEvidence & { faithfulness: number | null },
  options: { min: number },
): MatcherVerdict {
  if (outcome.faithfulness === null)
    return { undecidable: `${outcome.id}: faithfulness not computed (no answer, or no decidable claim)` }
  return {
    pass: outcome.faithfulness >= options.min,
    claim: `faithfulness of ${outcome.id} >= ${options.min} (got ${outcome.faithfulness})`,
    evidence: () => describeEvidence(outcome),
  }
}
