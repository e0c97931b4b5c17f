import type { QuestionType } from '../../contract/question-types.ts'
import { contextHit } from '../../scoring/retrieval/context-hit.ts'
import { describeEvidence, describeLoss, type QuestionEvidence } from './evidence.ts'
import type { MatcherVerdict } from './verdict.ts'

export interface HitOptions {
  /** How the answer docs must appear: any (single), all (multi), the governing one (contradiction). */
  mode: Exclude<QuestionType, 'none'>
  governingDocId?: string
}

/** toHitContext(answerDocIds, { mode }): the context handed to the model holds the answer docs as the mode requires. */
export function hitContext(
  outcome: QuestionEvidence & { contextDocIds: readonly string[] },
  answerDocIds: readonly string[],
  options: HitOptions,
): MatcherVerdict {
  const pass = contextHit({
    type: options.mode,
    answerDocIds,
    governingDocId: options.governingDocId,
    contextDocIds: outcome.contextDocIds,
  })
  const need =
    options.mode === 'multi'
      ? 'all of'
      : options.mode === 'contradiction' && options.governingDocId
        ? 'the governing doc of'
        : 'one of'
  // Where the loss funnel says the missing ones went: "t-014 retrieved at rank 3, cut by rerank".
  const lost = (outcome.funnel ?? []).filter((e) => answerDocIds.includes(e.docId) && !outcome.contextDocIds.includes(e.docId))
  return {
    pass,
    claim:
      `the context of ${outcome.id} to hold ${need} ${answerDocIds.join(', ')} (${options.mode})` +
      (lost.length === 0 ? '' : `: ${lost.map(describeLoss).join('; ')}`),
    evidence: () => describeEvidence(outcome),
  }
}
