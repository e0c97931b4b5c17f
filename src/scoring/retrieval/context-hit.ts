import type { QuestionType } from '../../contract/question-types.ts'

export interface HitInput {
  type: QuestionType
  answerDocIds: readonly string[]
  governingDocId?: string | undefined
  /** Document id of every context chunk (repeats allowed). */
  contextDocIds: readonly string[]
}

/**
 * Whether the context holds what the question needs (recall is judged on the context, not a top-k):
 * single: any answer doc in context; multi: every answer doc; contradiction: the governing doc, or
 * any answer doc when the question names none; none: never a hit (there is nothing to find).
 */
export function contextHit({ type, answerDocIds, governingDocId, contextDocIds }: HitInput): boolean {
  const inContext = new Set(contextDocIds)
  switch (type) {
    case 'none':
      return false
    case 'multi':
      return answerDocIds.length > 0 && answerDocIds.every((id) => inContext.has(id))
    case 'contradiction':
      return governingDocId !== undefined ? inContext.has(governingDocId) : answerDocIds.some((id) => inContext.has(id))
    case 'single':
      return answerDocIds.some((id) => inContext.has(id))
  }
}
