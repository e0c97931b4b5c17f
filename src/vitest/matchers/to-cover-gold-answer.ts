import { describeEvidence, type QuestionEvidence } from './evidence.ts'
import type { MatcherVerdict } from './verdict.ts'

/** toCoverGoldAnswer({ min }): the answer holds at least `min` of the gold answer's key facts. Undecidable when null. */
export function coverGoldAnswer(
  outcome: QuestionEvidence & { coverage: number | null; goldAnswer: string | null },
  options: { min: number },
): MatcherVerdict {
  if (outcome.coverage === null) return { undecidable: `${outcome.id}: coverage not computed (no answer or no gold answer)` }
  return {
    pass: outcome.coverage >= options.min,
    claim: `the answer of ${outcome.id} to cover >= ${options.min} of the gold answer (got ${outcome.coverage})`,
    evidence: () => `gold answer ${outcome.goldAnswer ?? '(none)'}\n${describeEvidence(outcome)}`,
  }
}
