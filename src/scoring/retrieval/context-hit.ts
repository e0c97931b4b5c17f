import type { QuestionType } from '../../contract/question-types.ts'

export interface HitInput {
  type: QuestionType
  answerDocIds: readonly string[]
  governingDocId?: string | undefined
  /** Document id of every context chunk (repeats allowed). */
  contextDocIds: readonly string[]
}

/**
 * Whether the context (not a top-k) holds what the question needs: single, any answer doc; multi, every one;
 * contradiction, the governing doc (any answer doc when none is named); none, never.
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
