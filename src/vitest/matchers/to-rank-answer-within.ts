import { describeEvidence, type QuestionEvidence } from './evidence.ts'
import type { MatcherVerdict } from './verdict.ts'

/** toRankAnswerWithin(k): the first chunk of an answer doc is ranked k or better (ranks from 1). */
export function rankAnswerWithin(outcome: QuestionEvidence & { rankedDocIds: readonly string[] }, k: number): MatcherVerdict {
  if (outcome.answerDocIds.length === 0) return { undecidable: `${outcome.id} is a none question: there is no answer to rank` }
  const answers = new Set(outcome.answerDocIds)
  const rank = outcome.rankedDocIds.findIndex((id) => answers.has(id)) + 1
  const found =
    rank === 0 ? `no answer doc in the ${outcome.rankedDocIds.length} ranked chunks` : `first answer doc at rank ${rank}`
  return {
    pass: rank > 0 && rank <= k,
    claim: `an answer doc of ${outcome.id} within the top ${k} (${found})`,
    evidence: () => describeEvidence(outcome),
  }
}
