import { QuestionOutcomeSchema, type QuestionOutcome } from '../../contract/question-outcome-schema.ts'
import type { HitOptions } from './to-hit-context.ts'
import type { RegressionOptions } from './to-not-regress-from.ts'
import { ragMatchersWith } from './rag-matchers-with.ts'

/** Outcomes already checked, with what the check made of them: a question's case asserts up to four matchers on one outcome. */
const checked = new WeakMap<object, QuestionOutcome>()

/** The question matchers take a question outcome of the report; anything else is a usage error. */
function asOutcome(matcher: string, received: unknown): QuestionOutcome {
  const known = typeof received === 'object' && received !== null ? checked.get(received) : undefined
  if (known) return known
  const parsed = QuestionOutcomeSchema.safeParse(received)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new TypeError(
      `${matcher} expects a question outcome of the report (reports/latest.json questions[]); field "${issue.path.join('.')}": ${issue.message}`,
    )
  }
  checked.set(received as object, parsed.data)
  return parsed.data
}

/** The matchers for any test (`expect.extend(ragMatchers)`): a question matcher checks what it received against the outcome's schema. */
export const ragMatchers = ragMatchersWith(asOutcome)

/** The matchers' signatures, shared by `expect(x).toHitContext(...)` and `expect.toHitContext(...)`. */
export interface RagMatchers<R = unknown> {
  toHitContext(answerDocIds: readonly string[], options: HitOptions): R
  toRankAnswerWithin(k: number): R
  toRefuse(): R
  toBeFaithful(options: { min: number }): R
  toCoverGoldAnswer(options: { min: number }): R
  toSurviveStages(docIds?: readonly string[]): R
  toNotRegressFrom(baseline: number | null, options: RegressionOptions): R
}

declare module 'vitest' {
  // Declaration merging (an empty body is the point) needs Vitest's own `T = any`.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any, @typescript-eslint/no-empty-object-type
  interface Assertion<T = any> extends RagMatchers<T> {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AsymmetricMatchersContaining extends RagMatchers {}
}
