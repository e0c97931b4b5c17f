/**
 * 1 / rank (from 1) of the first ranked chunk of an answer doc; 0 when none is (also for an empty ranking or no
 * answer docs).
 */
export function reciprocalRank(rankedDocIds: readonly string[], answerDocIds: readonly string[]): number {
  const answers = new Set(answerDocIds)
  const index = rankedDocIds.findIndex((id) => answers.has(id))
  return index === -1 ? 0 : 1 / (index + 1)
}
