import { describeEvidence, type QuestionEvidence } from './evidence.ts'
import type { MatcherVerdict } from './verdict.ts'

/** toRefuse(): the system said it could not find the answer in the material. Undecidable without an answer. */
export function refuse(outcome: QuestionEvidence & { refused: boolean | null }): MatcherVerdict {
  if (outcome.refused === null) return { undecidable: `${outcome.id}: no answer to judge (the run generated no answers)` }
  return { pass: outcome.refused, claim: `${outcome.id} to be refused`, evidence: () => describeEvidence(outcome) }
}
