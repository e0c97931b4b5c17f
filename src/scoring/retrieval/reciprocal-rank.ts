/**
 * Reciprocal rank: 1 / rank of the first ranked chunk whose document is an answer doc, ranks counted
 * from 1; 0 when no ranked chunk belongs to an answer doc (and for an empty ranking or no answer docs).
 */
export function reciprocalRank(rankedDocIds: readonly string[], answerDocIds: readonly string[]): number {
  const answers = new Set(answerDocIds)
  const index = rankedDocIds.findIndex((id) => answers.has(id))
  return index === -1 ? 0 : 1 / (index + 1)
}
