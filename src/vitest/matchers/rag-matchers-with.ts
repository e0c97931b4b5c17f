import type { MatcherResult, MatcherState } from 'vitest'
import type { QuestionOutcome } from '../../contract/question-outcome-schema.ts'
import { beFaithful } from './to-be-faithful.ts'
import { coverGoldAnswer } from './to-cover-gold-answer.ts'
import { hitContext, type HitOptions } from './to-hit-context.ts'
import { notRegressFrom, type RegressionOptions } from './to-not-regress-from.ts'
import { rankAnswerWithin } from './to-rank-answer-within.ts'
import { refuse } from './to-refuse.ts'
import { surviveStages } from './to-survive-stages.ts'
import { verdictMessage, type MatcherVerdict } from './verdict.ts'

/** A pure verdict as Vitest's matcher result; an undecidable one skips the test with its reason, never passes. */
function settle(state: MatcherState, verdict: MatcherVerdict): MatcherResult {
  if ('undecidable' in verdict) {
    const context = state.task?.context
    if (context) context.skip(verdict.undecidable)
    throw new Error(`cannot decide: ${verdict.undecidable}`)
  }
  return { pass: verdict.pass, message: () => verdictMessage(verdict, state.isNot) }
}

/** The matchers, given how they take what they received: schema-checked (ragMatchers), or trusted (the eval cases). */
export function ragMatchersWith(asOutcome: (matcher: string, received: unknown) => QuestionOutcome) {
  return {
    toHitContext(this: MatcherState, received: unknown, answerDocIds: readonly string[], options: HitOptions) {
      return settle(this, hitContext(asOutcome('toHitContext', received), answerDocIds, options))
    },
    toRankAnswerWithin(this: MatcherState, received: unknown, k: number) {
      return settle(this, rankAnswerWithin(asOutcome('toRankAnswerWithin', received), k))
    },
    toRefuse(this: MatcherState, received: unknown) {
      return settle(this, refuse(asOutcome('toRefuse', received)))
    },
    toBeFaithful(this: MatcherState, received: unknown, options: { min: number }) {
      return settle(this, beFaithful(asOutcome('toBeFaithful', received), options))
    },
    toCoverGoldAnswer(this: MatcherState, received: unknown, options: { min: number }) {
      return settle(this, coverGoldAnswer(asOutcome('toCoverGoldAnswer', received), options))
    },
    toSurviveStages(this: MatcherState, received: unknown, docIds?: readonly string[]) {
      return settle(this, surviveStages(asOutcome('toSurviveStages', received), docIds))
    },
    toNotRegressFrom(this: MatcherState, received: unknown, baseline: number | null, options: RegressionOptions) {
      if (received !== null && typeof received !== 'number')
        throw new TypeError(`toNotRegressFrom expects a metric value (number or null), got ${typeof received}`)
      return settle(this, notRegressFrom(received, baseline, options))
    },
  }
}
