import type { MatcherResult, MatcherState } from 'vitest'
import { QuestionOutcomeSchema, type QuestionOutcome } from '../../contract/question-outcome-schema.ts'
import { beFaithful } from './to-be-faithful.ts'
import { coverGoldAnswer } from './to-cover-gold-answer.ts'
import { hitContext, type HitOptions } from './to-hit-context.ts'
import { notRegressFrom, type RegressionOptions } from './to-not-regress-from.ts'
import { rankAnswerWithin } from './to-rank-answer-within.ts'
import { refuse } from './to-refuse.ts'
import { verdictMessage, type MatcherVerdict } from './verdict.ts'

/**
 * Turns a pure verdict into Vitest's matcher result. An undecidable verdict skips the running test
 * with its reason (a matcher the mode cannot decide yet must not pass or fail).
 */
function settle(state: MatcherState, verdict: MatcherVerdict): MatcherResult {
  if ('undecidable' in verdict) {
    const context = state.task?.context
    if (context) context.skip(verdict.undecidable)
    throw new Error(`cannot decide: ${verdict.undecidable}`)
  }
  return { pass: verdict.pass, message: () => verdictMessage(verdict, state.isNot) }
}

/** Outcomes already checked, with what the check made of them: a question's case asserts up to four matchers on one outcome. */
const checked = new WeakMap<object, QuestionOutcome>()

/** The question matchers take a question outcome of the report; anything else is a usage error. */
function asOutcome(matcher: string, received: unknown): QuestionOutcome {
  const known = typeof received === 'object' && received !== null ? checked.get(received) : undefined
  if (known) return known
  const parsed = QuestionOutcomeSchema.safeParse(received)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new TypeError(`${matcher} expects a question outcome of the report (reports/latest.json questions[]); field "${issue.path.join('.')}": ${issue.message}`)
  }
  checked.set(received as object, parsed.data)
  return parsed.data
}

export const ragMatchers = {
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
  toNotRegressFrom(this: MatcherState, received: unknown, baseline: number | null, options: RegressionOptions) {
    if (received !== null && typeof received !== 'number') throw new TypeError(`toNotRegressFrom expects a metric value (number or null), got ${typeof received}`)
    return settle(this, notRegressFrom(received, baseline, options))
  },
}

/** The matchers' signatures, shared by `expect(x).toHitContext(...)` and `expect.toHitContext(...)`. */
export interface RagMatchers<R = unknown> {
  toHitContext(answerDocIds: readonly string[], options: HitOptions): R
  toRankAnswerWithin(k: number): R
  toRefuse(): R
  toBeFaithful(options: { min: number }): R
  toCoverGoldAnswer(options: { min: number }): R
  toNotRegressFrom(baseline: number | null, options: RegressionOptions): R
}

declare module 'vitest' {
  // The type parameter must repeat Vitest's own declaration (`T = any`) for the interfaces to merge.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  interface Assertion<T = any> extends RagMatchers<T> {}
  interface AsymmetricMatchersContaining extends RagMatchers {}
}
