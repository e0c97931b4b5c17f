import { firstOccurrences } from './ndcg-at-10.ts'

/**
 * Recall@k: the share of answer docs among the documents of the top k ranked chunks (k counts chunks). 0
 * without answer docs. It ignores the token budget, so bigger chunks inflate it.
 */
export function recallAtK(rankedDocIds: readonly string[], answerDocIds: readonly string[], k: number): number {
  const answers = new Set(answerDocIds)
  if (answers.size === 0) return 0
  const found = firstOccurrences(rankedDocIds.slice(0, k)).filter((id) => answers.has(id)).length
  return found / answers.size
}
